package dev.evidencestore.persistence;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * The database role a connection runs as, as far as the write-once triggers care: a superuser, or the owner of a
 * table the triggers guard, may disable them and rewrite the record, so the service's own role must be neither.
 *
 * @param name the role
 * @param superuser whether it is a superuser
 * @param guardedTables the tables of the schema with triggers of their own that it owns (or may act as the owner of)
 */
record RuntimeRole(String name, boolean superuser, List<String> guardedTables) {

    /** Owning through membership counts: a member of the owner role may SET ROLE to it and then ALTER the table. */
    private static final String STANDING = """
            SELECT current_user, r.rolsuper,
                   coalesce(array_agg(c.relname::text ORDER BY c.relname) FILTER (WHERE c.oid IS NOT NULL), '{}')
            FROM pg_roles r
            LEFT JOIN pg_class c ON c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
                AND pg_has_role(c.relowner, 'MEMBER')
                AND EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND NOT t.tgisinternal)
            WHERE r.rolname = current_user
            GROUP BY r.rolsuper""";

    static RuntimeRole of(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(STANDING);
             ResultSet row = statement.executeQuery()) {
            row.next();
            Array tables = row.getArray(3);
            return new RuntimeRole(row.getString(1), row.getBoolean(2), List.of((String[]) tables.getArray()));
        }
    }

    /** What to tell the operator when this role can undo the triggers, if it can. */
    Optional<String> warning() {
        if (!superuser && guardedTables.isEmpty()) {
            return Optional.empty();
        }
        String standing = superuser ? "is a superuser, above the owner of the tables " : "owns the tables ";
        return Optional.of("the database role " + name + " that the service runs as " + standing
                + String.join(", ", guardedTables) + ": it can disable their write-once triggers and rewrite the "
                + "evidence and the audit log. Run the migrations as the owner (quarkus.flyway.username and .password, "
                + "QUARKUS_FLYWAY_USERNAME/PASSWORD) and the service as a role that owns nothing "
                + "(quarkus.datasource.username, QUARKUS_DATASOURCE_USERNAME); see docs/operations.md, "
                + "\"Database roles\"");
    }
}
