package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.Session;
import org.hibernate.annotations.Immutable;

import java.sql.PreparedStatement;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** A row of the write-once audit chain; {@code seq} is assigned by the audit sequencer under the chain lock. */
@Entity
@Immutable
@Table(name = "audit_entry")
public class AuditEntryEntity extends PanacheEntityBase {

    @Id
    public Long seq;

    public Instant at;
    public String actor;
    public String workspace;
    public String method;
    public String path;
    public String target;
    public int status;
    public String problem;
    public boolean replayed;

    /** The values cut to the entry's bound, as canonical JSON, or null; see V11__bounded_audit.sql. */
    public String truncated;

    /** The refused requests this one entry stands for, as canonical JSON, or null; see V11__bounded_audit.sql. */
    public String aggregate;

    @Column(name = "prev_hash")
    public String prevHash;

    @Column(name = "entry_hash")
    public String entryHash;

    /** The write's request ID, not part of the canonical JSON; see V10__review_statements.sql. */
    @Column(name = "request_id")
    public UUID requestId;

    /** Takes the transaction-scoped advisory lock {@code key}; it is held until the transaction ends. */
    public static void lockForTransaction(long key) {
        // the lock function returns void, which has no Java type: select a constant from it instead
        getEntityManager().createNativeQuery("SELECT 1 FROM pg_advisory_xact_lock(:key)")
                .setParameter("key", key)
                .getSingleResult();
    }

    /** The {@code seq} of the entry of the write with this request ID, or null while it has none yet. */
    public static Long seqOf(UUID requestId) {
        return AuditEntryEntity.<AuditEntryEntity>find("requestId", requestId).firstResultOptional()
                .map(entry -> entry.seq).orElse(null);
    }

    /** The last entry, or null while the log is empty. */
    /** The last link of the chain: its {@code seq} and hash, read without loading the entity. */
    public record ChainTip(long seq, String entryHash) {
    }

    /** The chain's last link, or empty while the log has no entry. */
    public static Optional<ChainTip> tip() {
        List<Object[]> rows = getEntityManager()
                .createNativeQuery("SELECT seq, entry_hash FROM audit_entry ORDER BY seq DESC LIMIT 1", Object[].class)
                .getResultList();
        return rows.stream().findFirst().map(row -> new ChainTip(((Number) row[0]).longValue(), (String) row[1]));
    }


    /** Inserts entries in one JDBC batch on the transaction's connection, in {@code seq} order. */
    public static void insert(List<AuditEntryEntity> entries) {
        if (entries.isEmpty()) {
            return;
        }
        getEntityManager().unwrap(Session.class).doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement("""
                    INSERT INTO audit_entry (seq, at, actor, workspace, method, path, target, status, problem,
                                             replayed, prev_hash, entry_hash, request_id, truncated, aggregate)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
                for (AuditEntryEntity entry : entries) {
                    insert.setLong(1, entry.seq);
                    insert.setObject(2, entry.at.atOffset(ZoneOffset.UTC));
                    insert.setString(3, entry.actor);
                    insert.setString(4, entry.workspace);
                    insert.setString(5, entry.method);
                    insert.setString(6, entry.path);
                    insert.setString(7, entry.target);
                    insert.setInt(8, entry.status);
                    if (entry.problem == null) {
                        insert.setNull(9, Types.VARCHAR);
                    } else {
                        insert.setString(9, entry.problem);
                    }
                    insert.setBoolean(10, entry.replayed);
                    insert.setString(11, entry.prevHash);
                    insert.setString(12, entry.entryHash);
                    insert.setObject(13, entry.requestId, Types.OTHER);
                    insert.setString(14, entry.truncated);
                    insert.setString(15, entry.aggregate);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        });
    }
}
