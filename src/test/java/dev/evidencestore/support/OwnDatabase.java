package dev.evidencestore.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * A database of a test profile's own, {@code <EVIDENCE_TEST_DB>_<suffix>}, created afresh when the profile starts,
 * for tests that tamper with the log beyond repair. Its profile disables the global test resources, so that
 * {@link TestDatabase} does not point the service at the shared database as well:
 * {@code new TestResourceEntry(OwnDatabase.class, Map.of(OwnDatabase.SUFFIX, "published"))}.
 */
public class OwnDatabase implements QuarkusTestResourceLifecycleManager {

    public static final String SUFFIX = "suffix";

    private String name;

    /** The database of a suffix, to reach it with plain JDBC as an operator would. */
    public static String name(String suffix) {
        return TestDatabase.NAME + "_" + suffix;
    }

    public static Connection connect(String suffix) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://" + TestDatabase.HOST + "/" + name(suffix),
                TestDatabase.USER, null);
    }

    @Override
    public void init(Map<String, String> initArgs) {
        name = name(initArgs.get(SUFFIX));
    }

    @Override
    public Map<String, String> start() {
        TestDatabase.recreate(name);
        Map<String, String> settings = new HashMap<>(TestDatabase.roles());
        settings.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + TestDatabase.HOST + "/" + name);
        settings.put("evidence.storage.filesystem.path", TestDatabase.BLOB_DIR.toString());
        return settings;
    }

    @Override
    public void stop() {
        // dropped when the JVM exits, as TestDatabase drops its own
    }
}
