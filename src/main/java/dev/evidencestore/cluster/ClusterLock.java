package dev.evidencestore.cluster;

import dev.evidencestore.persistence.Statements;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * Work that only one instance of the service may do at a time (sweeping abandoned uploads, scrubbing, loading the
 * demo), coordinated through a PostgreSQL session advisory lock, because instances share nothing but the database.
 * The lock lives on a connection of its own for the duration of the work, so it is released even when the instance
 * dies: PostgreSQL drops a session's locks with its connection.
 */
@ApplicationScoped
public class ClusterLock {

    private final Statements statements;

    ClusterLock(Statements statements) {
        this.statements = statements;
    }

    /** Runs {@code work} unless another instance is doing it right now; false when it was skipped. */
    public boolean runIfFree(String name, Runnable work) {
        return hold(name, false, () -> {
            work.run();
            return true;
        }, false);
    }

    /** Waits until no other instance holds {@code name}, then runs {@code work}. */
    public <T> T runExclusively(String name, Supplier<T> work) {
        return hold(name, true, work, null);
    }

    private <T> T hold(String name, boolean wait, Supplier<T> work, T skipped) {
        return statements.onOwnConnection("cannot take the cluster lock " + name, connection -> {
            if (!lock(connection, name, wait)) {
                return skipped;
            }
            try {
                return work.get();
            } finally {
                unlock(connection, name);
            }
        });
    }

    private static boolean lock(Connection connection, String name, boolean wait) throws SQLException {
        String sql = wait ? "SELECT true FROM pg_advisory_lock(hashtextextended(?, 0))"
                : "SELECT pg_try_advisory_lock(hashtextextended(?, 0))";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, "evidence-store:" + name);
            try (ResultSet result = statement.executeQuery()) {
                return result.next() && result.getBoolean(1);
            }
        }
    }

    private static void unlock(Connection connection, String name) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT pg_advisory_unlock(hashtextextended(?, 0))")) {
            statement.setString(1, "evidence-store:" + name);
            statement.execute();
        }
    }
}
