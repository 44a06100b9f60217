package dev.evidencestore.persistence;

import dev.evidencestore.domain.IntegrityTotals;
import dev.evidencestore.domain.Digest;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Immutable;

import java.time.Instant;

/** Read side of what the last check of a blob's bytes found; rows are upserted by SQL, as checks may race. */
@Entity
@Immutable
@Table(name = "blob_integrity")
public class BlobIntegrityEntity extends PanacheEntityBase {

    @Id
    public String digest;

    @Column(name = "checked_at")
    public Instant checkedAt;

    public boolean damaged;

    /** What the bytes hashed to; null when they could not be read. */
    @Column(name = "computed_digest")
    public String computedDigest;

    @Column(name = "damaged_since")
    public Instant damagedSince;

    public Digest computed() {
        return computedDigest == null ? null : Digest.parse(computedDigest);
    }

    /**
     * Records the outcome of checking a blob's stored bytes; a blob that stays damaged keeps the time it was first
     * found damaged.
     */
    public static void record(String digest, Instant at, boolean damaged, String computed) {
        getEntityManager().createNativeQuery("""
                        INSERT INTO blob_integrity (digest, checked_at, damaged, computed_digest, damaged_since)
                        VALUES (:digest, :at, :damaged, CAST(:computed AS text), CAST(:since AS timestamptz))
                        ON CONFLICT (digest) DO UPDATE SET checked_at = excluded.checked_at,
                            damaged = excluded.damaged, computed_digest = excluded.computed_digest,
                            damaged_since = CASE WHEN excluded.damaged
                                THEN coalesce(blob_integrity.damaged_since, excluded.damaged_since) END""")
                .setParameter("digest", digest)
                .setParameter("at", at)
                .setParameter("damaged", damaged)
                .setParameter("computed", computed)
                .setParameter("since", damaged ? at : null)
                .executeUpdate();
    }

    /** How many blobs are stored, how many have been checked, and how many of those were found damaged. */
    public static IntegrityTotals totals() {
        Object[] counts = (Object[]) getEntityManager().createNativeQuery("""
                        SELECT (SELECT count(*) FROM blob), (SELECT count(*) FROM blob_integrity),
                               (SELECT count(*) FROM blob_integrity WHERE damaged)""")
                .getSingleResult();
        return new IntegrityTotals(((Number) counts[0]).longValue(), ((Number) counts[1]).longValue(),
                ((Number) counts[2]).longValue(), ScrubPassEntity.lastFinishedAt());
    }
}
