package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.Session;
import org.hibernate.annotations.Immutable;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/** An audit entry written with its write and not yet given its place in the log (see V9__transparency_log.sql). */
@Entity
@Immutable
@Table(name = "audit_pending")
public class AuditPendingEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public Instant at;
    public String actor;
    public String workspace;
    public String method;
    public String path;
    public String target;
    public int status;
    public String problem;
    public boolean replayed;

    /** The write's request ID, which the review rows it made keep too; see V10__review_statements.sql. */
    @Column(name = "request_id")
    public UUID requestId;

    /** The values cut to the entry's bound, as canonical JSON, or null; see V11__bounded_audit.sql. */
    public String truncated;

    /** The refused requests this one entry stands for, as canonical JSON, or null; see V11__bounded_audit.sql. */
    public String aggregate;

    private static final String INSERT = """
            INSERT INTO audit_pending (at, actor, workspace, method, path, target, status, problem, replayed,
                                       request_id, truncated, aggregate)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

    /**
     * Inserts this row on the transaction's connection in one statement. Not through {@code persist}: an identity
     * row is inserted at once, and with the flush that went with it, it was a tenth of a small write's CPU.
     */
    public void insert() {
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                bind(insert);
                insert.executeUpdate();
            }
        });
    }

    /** Inserts {@code rows} in one JDBC batch on the transaction's connection, in their order. */
    public static void insert(List<AuditPendingEntity> rows) {
        if (rows.isEmpty()) {
            return;
        }
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                for (AuditPendingEntity row : rows) {
                    row.bind(insert);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        });
    }

    private void bind(PreparedStatement insert) throws SQLException {
        insert.setObject(1, at.atOffset(ZoneOffset.UTC));
        insert.setString(2, actor);
        insert.setString(3, workspace);
        insert.setString(4, method);
        insert.setString(5, path);
        insert.setString(6, target);
        insert.setInt(7, status);
        insert.setString(8, problem);
        insert.setBoolean(9, replayed);
        insert.setObject(10, requestId, Types.OTHER);
        insert.setString(11, truncated);
        insert.setString(12, aggregate);
    }

    /**
     * Removes the oldest {@code limit} rows and returns them, in the order they are to be sequenced: one statement,
     * in the sequencer's transaction, which writes their entries and commits both.
     */
    public static List<AuditPendingEntity> take(int limit) {
        List<AuditPendingEntity> taken = new ArrayList<>();
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            // = ANY(ARRAY(…)), not IN (…): the plan cached while the table is small would join by scanning it whole,
            // and the table's dead rows (it is a queue) are all scanned until vacuum removes them
            try (PreparedStatement delete = connection.prepareStatement("""
                    DELETE FROM audit_pending WHERE id = ANY(ARRAY(SELECT id FROM audit_pending ORDER BY id LIMIT ?))
                    RETURNING id, at, actor, workspace, method, path, target, status, problem, replayed,
                              request_id, truncated, aggregate""")) {
                delete.setInt(1, limit);
                try (ResultSet rows = delete.executeQuery()) {
                    while (rows.next()) {
                        taken.add(of(rows));
                    }
                }
            }
        });
        taken.sort(Comparator.comparingLong(row -> row.id));
        return taken;
    }

    private static AuditPendingEntity of(ResultSet rows) throws SQLException {
        AuditPendingEntity row = new AuditPendingEntity();
        row.id = rows.getLong("id");
        row.at = rows.getObject("at", OffsetDateTime.class).toInstant();
        row.actor = rows.getString("actor");
        row.workspace = rows.getString("workspace");
        row.method = rows.getString("method");
        row.path = rows.getString("path");
        row.target = rows.getString("target");
        row.status = rows.getInt("status");
        row.problem = rows.getString("problem");
        row.replayed = rows.getBoolean("replayed");
        row.requestId = rows.getObject("request_id", UUID.class);
        row.truncated = rows.getString("truncated");
        row.aggregate = rows.getString("aggregate");
        return row;
    }
}
