package dev.evidencestore.persistence;

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
}
