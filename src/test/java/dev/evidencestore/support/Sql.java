package dev.evidencestore.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Direct SQL on the test database, as an operator (or an attacker) with database access would run it. */
public final class Sql {

    private Sql() {
    }

    public static Connection connect() throws SQLException {
        return DriverManager.getConnection(TestDatabase.URL, TestDatabase.USER, null);
    }

    public static int update(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters);
            return statement.executeUpdate();
        }
    }

    /** Runs a statement with triggers off, the way someone tampering behind the service's back would. */
    public static int tamper(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect()) {
            try (PreparedStatement off = connection.prepareStatement("SET session_replication_role = replica")) {
                off.execute();
            }
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                bind(statement, parameters);
                return statement.executeUpdate();
            }
        }
    }

    /**
     * Counts the audit entries matching {@code condition} (over {@code path}, {@code workspace}, {@code target},
     * {@code status}) whether the sequencer has numbered them yet or not: an entry is recorded once its write
     * committed, in audit_pending, and the sequencer moves it to audit_entry in one commit.
     */
    public static String recordedAuditEntries(String condition) {
        return "SELECT count(*) FROM (SELECT path, workspace, target, status FROM audit_entry UNION ALL "
                + "SELECT path, workspace, target, status FROM audit_pending) recorded WHERE " + condition;
    }

    /**
     * Waits until the sequencer has numbered every audit entry committed so far, as every read of the log through
     * the service does: an entry is durable once its write committed, and has its {@code seq} a little later.
     */
    public static void awaitAuditSequenced() throws SQLException, InterruptedException {
        awaitAuditSequencedIn(TestDatabase.NAME);
    }

    /** {@link #awaitAuditSequenced()} in another database of the test PostgreSQL. */
    public static void awaitAuditSequencedIn(String database) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (countIn(database, "SELECT count(*) FROM audit_pending") > 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("audit entries still pending after 10 s");
            }
            Thread.sleep(20);
        }
    }

    public static long count(String sql, Object... parameters) throws SQLException {
        return countIn(TestDatabase.NAME, sql, parameters);
    }

    /**
     * Counts in another database of the test PostgreSQL, such as one that the packaged jar runs on. Not an overload
     * of {@link #count}: {@code count(sql, text)} would bind to it, taking the SQL for a database name.
     */
    public static long countIn(String database, String sql, Object... parameters) throws SQLException {
        String url = "jdbc:postgresql://" + TestDatabase.HOST + "/" + database;
        try (Connection connection = DriverManager.getConnection(url, TestDatabase.USER, null);
             PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters);
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** The timestamp the query's first row holds first, or null. */
    public static Instant instant(String sql, Object... parameters) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            bind(statement, parameters);
            try (ResultSet rs = statement.executeQuery()) {
                OffsetDateTime at = rs.next() ? rs.getObject(1, OffsetDateTime.class) : null;
                return at == null ? null : at.toInstant();
            }
        }
    }

    private static void bind(PreparedStatement statement, Object... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setObject(i + 1, parameters[i]);
        }
    }
}
