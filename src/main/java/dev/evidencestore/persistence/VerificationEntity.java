package dev.evidencestore.persistence;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.VerificationResult;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import java.time.Instant;

@Entity
@Table(name = "verification")
public class VerificationEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "artifact_id")
    public ArtifactEntity artifact;

    @Column(name = "recorded_digest")
    public String recordedDigest;

    @Column(name = "computed_digest")
    public String computedDigest;

    @Column(name = "claimed_digest")
    public String claimedDigest;

    public boolean verified;

    @Column(name = "verified_at")
    public Instant verifiedAt;

    @Column(name = "verified_by")
    public String verifiedBy;

    /** The principal of {@link #verifiedBy}; null on rows written before principals were recorded. */
    @Column(name = "verified_by_principal")
    public String verifiedByPrincipal;

    public Attribution verifier() {
        return Attribution.of(verifiedBy, verifiedByPrincipal);
    }

    public VerificationResult toResult(ArtifactId artifactId) {
        return new VerificationResult(artifactId, Digest.parse(recordedDigest), digestOrNull(computedDigest),
                digestOrNull(claimedDigest), verified, verifiedAt, verifiedBy);
    }

    private static Digest digestOrNull(String digest) {
        return digest == null ? null : Digest.parse(digest);
    }
}
