package dev.evidencestore.support;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * Gives the tests a database of their own on the local PostgreSQL, dropped and created afresh once per test run,
 * and an empty blob directory, so no test relies on what an earlier run left behind. Every database made here is
 * dropped again when the test JVM exits, unless {@code EVIDENCE_TEST_KEEP_DATABASES=1} keeps them for inspection.
 */
@QuarkusTestResource(value = TestDatabase.class, restrictToAnnotatedClass = false)
public class TestDatabase implements QuarkusTestResourceLifecycleManager {

    public static final String HOST = System.getenv().getOrDefault("EVIDENCE_TEST_PGHOST", "127.0.0.1:5432");
    /** Overridable so that two checkouts can run their suites at once without sharing a database. */
    public static final String NAME = System.getenv().getOrDefault("EVIDENCE_TEST_DB", "evidence_test");
    public static final String URL = "jdbc:postgresql://" + HOST + "/" + NAME;
    /** The superuser: it creates the databases, runs the migrations (so owns the tables) and plays the operator. */
    public static final String USER = System.getenv().getOrDefault("EVIDENCE_TEST_PGUSER", "postgres");
    /**
     * The role the service runs as, with only what afterMigrate.sql grants it. Roles belong to the whole PostgreSQL
     * cluster, not to one database, so checkouts testing at once share it; it is made when missing and never dropped.
     */
    public static final String RUNTIME_USER = "evidence_runtime";
    /** Any password: the local PostgreSQL trusts 127.0.0.1, but Flyway takes its own user only with a password too. */
    public static final String PASSWORD = "trust";
    public static final Path BLOB_DIR = Paths.get("target/test-blobs");

    private static final boolean KEEP = "1".equals(System.getenv("EVIDENCE_TEST_KEEP_DATABASES"));
    private static final Set<String> MADE = ConcurrentHashMap.newKeySet();

    private static boolean prepared;

    /** Another checkout may create the role at the same moment: losing that race is as good as winning it. */
    private static final String CREATE_RUNTIME_ROLE = """
            DO $$
            BEGIN
                CREATE ROLE %s LOGIN;
            EXCEPTION WHEN duplicate_object OR unique_violation THEN
                NULL;
            END
            $$""".formatted(RUNTIME_USER);

    @Override
    public synchronized Map<String, String> start() {
        if (!prepared) {
            recreateDatabase();
            deleteRecursively(BLOB_DIR);
            prepared = true;
        }
        Map<String, String> settings = new HashMap<>(roles());
        settings.put("quarkus.datasource.jdbc.url", URL);
        settings.put("evidence.storage.filesystem.path", BLOB_DIR.toString());
        return settings;
    }

    /** The settings of two roles: the superuser migrates and owns the tables, the service runs as the runtime role. */
    public static Map<String, String> roles() {
        return Map.of("quarkus.datasource.username", RUNTIME_USER,
                "quarkus.flyway.username", USER, "quarkus.flyway.password", PASSWORD);
    }

    @Override
    public void stop() {
        // the application stops between test profiles; the database goes when the JVM does
    }

    private static void recreateDatabase() {
        recreate(NAME);
    }

    /**
     * Drops and creates the database {@code name} on the test PostgreSQL, and the runtime role if it is missing; the
     * database is dropped when the JVM exits.
     */
    public static void recreate(String name) {
        administer(CREATE_RUNTIME_ROLE, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)", "CREATE DATABASE " + name);
        if (!KEEP && MADE.add(name)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> dropQuietly(name), "drop " + name));
        }
    }

    private static void dropQuietly(String name) {
        try {
            administer("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        } catch (IllegalStateException e) {
            System.err.println("could not drop the test database " + name + ": " + e.getCause());
        }
    }

    private static void administer(String... statements) {
        String admin = "jdbc:postgresql://" + HOST + "/postgres";
        try (Connection connection = DriverManager.getConnection(admin, USER, null);
             Statement sql = connection.createStatement()) {
            for (String statement : statements) {
                sql.execute(statement);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("the tests need PostgreSQL on " + HOST + " (user " + USER + ")", e);
        }
    }

    private static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot empty " + root, e);
        }
    }
}
