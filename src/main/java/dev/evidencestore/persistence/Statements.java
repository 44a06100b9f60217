package dev.evidencestore.persistence;

import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The few statements written by hand rather than through Panache entities (idempotency records, advisory locks),
 * each run on a pooled connection of its own and committed at once, outside any request transaction. A failing
 * statement becomes an {@link IllegalStateException} that keeps the {@link SQLException} as its cause, so a lost
 * database is still recognised from it and answered 503.
 */
@ApplicationScoped
public class Statements {

    private final AgroalDataSource dataSource;

    Statements(AgroalDataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Runs an INSERT, UPDATE or DELETE; returns the rows it touched. */
    public int update(String sql, Binding binding) {
        return run(sql, binding, PreparedStatement::executeUpdate);
    }

    /** Runs a query and reads its rows with {@code rows}. */
    public <T> T query(String sql, Binding binding, Rows<T> rows) {
        return run(sql, binding, statement -> {
            try (ResultSet result = statement.executeQuery()) {
                return rows.read(result);
            }
        });
    }

    /**
     * Runs {@code work} on one connection held for its whole duration, for state that lives with a session, such
     * as a session advisory lock.
     */
    public <T> T onOwnConnection(String purpose, Session<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw new IllegalStateException(purpose + ": " + e.getMessage(), e);
        }
    }

    private <T> T run(String sql, Binding binding, Execution<T> execution) {
        return onOwnConnection("statement failed", connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                binding.bind(statement);
                return execution.run(statement);
            }
        });
    }

    /** Sets a statement's parameters. */
    @FunctionalInterface
    public interface Binding {
        void bind(PreparedStatement statement) throws SQLException;
    }

    /** Reads a query's rows. */
    @FunctionalInterface
    public interface Rows<T> {
        T read(ResultSet rows) throws SQLException;
    }

    /** Work on a connection of its own. */
    @FunctionalInterface
    public interface Session<T> {
        T run(Connection connection) throws SQLException;
    }

    @FunctionalInterface
    private interface Execution<T> {
        T run(PreparedStatement statement) throws SQLException;
    }
}
