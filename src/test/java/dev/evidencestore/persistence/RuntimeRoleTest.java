package dev.evidencestore.persistence;

import dev.evidencestore.support.Sql;
import dev.evidencestore.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The service's database role owns nothing and holds only what afterMigrate.sql grants it, so it cannot undo the
 * write-once triggers the way an owner could. The rest of the suite runs as this role, which proves the grants are
 * enough for everything the service does.
 */
@QuarkusTest
class RuntimeRoleTest {

    /** PostgreSQL's insufficient_privilege, raised for a missing grant and for "must be owner" alike. */
    private static final String INSUFFICIENT_PRIVILEGE = "42501";
    private static final Pattern DECISION = Pattern.compile("^\\s*\\('([^']+)',\\s*'([A-Z, ]*)'\\),?");
    private static final List<String> PRIVILEGES =
            List.of("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER");

    @Inject
    AgroalDataSource dataSource;

    @Test
    void theServiceRunsAsTheRuntimeRole() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            RuntimeRole role = RuntimeRole.of(connection);
            assertEquals(TestDatabase.RUNTIME_USER, role.name());
            assertFalse(role.superuser());
            assertEquals(List.of(), role.guardedTables());
            assertFalse(role.warning().isPresent());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "ALTER TABLE audit_entry DISABLE TRIGGER ALL",
        "UPDATE audit_entry SET actor = 'x'",
        "DELETE FROM audit_entry",
        "TRUNCATE audit_entry",
        "ALTER TABLE audit_checkpoint DISABLE TRIGGER ALL",
        "UPDATE audit_checkpoint SET signature = 'x'",
        "DELETE FROM audit_checkpoint",
        "TRUNCATE audit_checkpoint",
        "ALTER TABLE artifact DISABLE TRIGGER ALL",
        "UPDATE artifact SET description = 'rewritten'",
        "DELETE FROM artifact",
        "TRUNCATE artifact",
        "ALTER TABLE blob DISABLE TRIGGER ALL",
        "UPDATE blob SET size = 0",
        "DELETE FROM blob",
        "TRUNCATE blob",
        "ALTER TABLE finding_review DISABLE TRIGGER ALL",
        "UPDATE finding_review SET note = 'x'",
        "DELETE FROM finding_review",
        "TRUNCATE finding_review",
        "ALTER TABLE audit_entry OWNER TO evidence_runtime",
        "CREATE TRIGGER quiet BEFORE UPDATE ON audit_entry FOR EACH ROW EXECUTE FUNCTION refuse_evidence_change()",
        "DROP TABLE audit_entry",
        "CREATE TABLE intruder (x integer)",
        // the way Sql.tamper turns triggers off as the superuser
        "SET session_replication_role = replica"
    })
    void refusesWhatOnlyAnOwnerMayDo(String statement) throws SQLException {
        try (Connection connection = runtime(); Statement sql = connection.createStatement()) {
            SQLException refused = assertThrows(SQLException.class, () -> sql.execute(statement));
            assertEquals(INSUFFICIENT_PRIVILEGE, refused.getSQLState(), refused.getMessage());
        }
    }

    @Test
    void everyTableHasAGrantDecision() throws IOException, SQLException {
        assertEquals(tablesOfTheSchema(), decisions().keySet(),
                "the tables of the schema and those listed in db/migration/afterMigrate.sql");
    }

    @Test
    void theRuntimeRoleHoldsExactlyWhatItsTableIsGranted() throws IOException, SQLException {
        Map<String, Set<String>> held = new TreeMap<>();
        try (Connection connection = Sql.connect();
             PreparedStatement has = connection.prepareStatement("SELECT has_table_privilege(?, ?, ?)")) {
            for (String table : decisions().keySet()) {
                Set<String> privileges = new TreeSet<>();
                for (String privilege : PRIVILEGES) {
                    has.setString(1, TestDatabase.RUNTIME_USER);
                    has.setString(2, table);
                    has.setString(3, privilege);
                    try (ResultSet row = has.executeQuery()) {
                        row.next();
                        if (row.getBoolean(1)) {
                            privileges.add(privilege);
                        }
                    }
                }
                held.put(table, privileges);
            }
        }
        assertEquals(decisions(), held);
    }

    /** Identity columns draw from their sequence without a grant; any other sequence is drawn by the service. */
    @Test
    void theRuntimeRoleMayDrawFromEverySequenceNotBehindAnIdentityColumn() throws SQLException {
        List<String> refused = new ArrayList<>();
        try (Connection connection = Sql.connect();
             PreparedStatement query = connection.prepareStatement("""
                     WITH sequence AS MATERIALIZED (
                       SELECT c.oid, c.relname FROM pg_class c
                       WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'S'
                         AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'i'))
                     -- materialized first: has_sequence_privilege fails on anything but a sequence
                     SELECT relname FROM sequence WHERE NOT has_sequence_privilege(?, oid, 'USAGE')""")) {
            query.setString(1, TestDatabase.RUNTIME_USER);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    refused.add(rows.getString(1));
                }
            }
        }
        assertEquals(List.of(), refused, "sequences without a GRANT USAGE in db/migration/afterMigrate.sql");
    }

    @Test
    void theSuperuserIsWarnedAbout() throws SQLException {
        try (Connection connection = Sql.connect()) {
            RuntimeRole role = RuntimeRole.of(connection);
            assertTrue(role.superuser());
            assertTrue(role.guardedTables().containsAll(List.of("audit_entry", "artifact", "blob")),
                    role.guardedTables().toString());
            String warning = role.warning().orElseThrow();
            assertTrue(warning.contains("is a superuser") && warning.contains("quarkus.datasource.username"), warning);
        }
    }

    @Test
    void anOwnerIsWarnedAboutNamingItsTables() {
        String warning = new RuntimeRole("evidence", false, List.of("audit_entry", "blob")).warning().orElseThrow();
        assertTrue(warning.startsWith("the database role evidence that the service runs as owns the tables "
                + "audit_entry, blob: "), warning);
        assertTrue(warning.contains("QUARKUS_FLYWAY_USERNAME"), warning);
    }

    @Test
    void aRoleThatOwnsNothingIsNotWarnedAbout() {
        assertFalse(new RuntimeRole("evidence_runtime", false, List.of()).warning().isPresent());
    }

    private static Connection runtime() throws SQLException {
        return DriverManager.getConnection(TestDatabase.URL, TestDatabase.RUNTIME_USER, TestDatabase.PASSWORD);
    }

    private static Set<String> tablesOfTheSchema() throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (Connection connection = Sql.connect();
             PreparedStatement query = connection.prepareStatement("""
                     SELECT relname FROM pg_class
                     WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p', 'v', 'm', 'f')""");
             ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                tables.add(rows.getString(1));
            }
        }
        return tables;
    }

    /** The table lines of afterMigrate.sql: each table with the privileges the runtime role gets on it. */
    private static Map<String, Set<String>> decisions() throws IOException {
        Map<String, Set<String>> decisions = new TreeMap<>();
        List<String> unreadable = new ArrayList<>();
        for (String line : callback().split("\n")) {
            Matcher decision = DECISION.matcher(line);
            if (decision.find()) {
                String table = decision.group(1).replace("${flyway:table}", "flyway_schema_history");
                Set<String> privileges = Arrays.stream(decision.group(2).split(","))
                        .map(String::trim).filter(p -> !p.isEmpty()).collect(Collectors.toCollection(TreeSet::new));
                if (!PRIVILEGES.containsAll(privileges) || decisions.put(table, privileges) != null) {
                    unreadable.add(line);
                }
            }
        }
        assertEquals(List.of(), unreadable, "lines naming an unknown privilege or a table twice");
        return decisions;
    }

    private static String callback() throws IOException {
        try (InputStream in = RuntimeRoleTest.class.getClassLoader()
                .getResourceAsStream("db/migration/afterMigrate.sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
