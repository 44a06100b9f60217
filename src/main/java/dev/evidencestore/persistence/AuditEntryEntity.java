package dev.evidencestore.persistence;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;

/** A row of the write-once audit chain; {@code seq} is assigned by the audit log under the chain lock. */
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

    @Column(name = "prev_hash")
    public String prevHash;

    @Column(name = "entry_hash")
    public String entryHash;

    /** Takes the transaction-scoped advisory lock {@code key}; it is held until the transaction ends. */
    public static void lockForTransaction(long key) {
        // the lock function returns void, which has no Java type: select a constant from it instead
        getEntityManager().createNativeQuery("SELECT 1 FROM pg_advisory_xact_lock(:key)")
                .setParameter("key", key)
                .getSingleResult();
    }
}
