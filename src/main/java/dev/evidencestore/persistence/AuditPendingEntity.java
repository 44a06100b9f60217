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
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
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

    /**
     * Inserts this row on the transaction's connection in one statement. Not through {@code persist}: an identity
     * row is inserted at once, and with the flush that went with it, it was a tenth of a small write's CPU.
     */
    public void insert() {
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO audit_pending (at, actor, workspace, method, path, target, status, problem, replayed,
                                               request_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
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
                insert.executeUpdate();
            }
        });
    }

    /** The oldest {@code limit} rows, in the order they are to be sequenced. */
    public static List<AuditPendingEntity> oldest(int limit) {
        return AuditPendingEntity.<AuditPendingEntity>find("order by id").range(0, limit - 1).list();
    }

    /** Removes rows that were sequenced; the sequencer's transaction, which wrote their entries, commits both. */
    public static void sequenced(List<Long> ids) {
        getEntityManager().createNativeQuery("DELETE FROM audit_pending WHERE id = ANY(CAST(:ids AS bigint[]))")
                .setParameter("ids", ids.toArray(Long[]::new))
                .executeUpdate();
    }
}
