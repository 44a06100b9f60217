package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;
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
