package dev.evidencestore.persistence;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;
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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        return result(artifactId, recordedDigest, computedDigest, claimedDigest, verified, verifiedAt, verifiedBy);
    }

    /**
     * Every verification of every artifact of one incident, oldest first, by artifact: one query of the columns a
     * result needs, as a postmortem reads hundreds of them and would otherwise load each as an entity.
     */
    public static Map<ArtifactId, List<VerificationResult>> ofIncident(Workspace workspace, IncidentKey key) {
        List<Object[]> rows = getEntityManager().createQuery("""
                        select a.name, v.recordedDigest, v.computedDigest, v.claimedDigest, v.verified, v.verifiedAt,
                               v.verifiedBy
                        from VerificationEntity v join v.artifact a join a.incident i
                        where i.workspace = ?1 and i.key = ?2 order by v.verifiedAt, v.id""", Object[].class)
                .setParameter(1, workspace.slug()).setParameter(2, key.value()).getResultList();
        Map<ArtifactId, List<VerificationResult>> byArtifact = new LinkedHashMap<>();
        Map<String, ArtifactId> ids = new HashMap<>();
        for (Object[] row : rows) {
            ArtifactId id = ids.computeIfAbsent((String) row[0],
                    name -> new ArtifactId(workspace, key, new RecordName(name)));
            byArtifact.computeIfAbsent(id, ignored -> new ArrayList<>()).add(result(id, (String) row[1],
                    (String) row[2], (String) row[3], (Boolean) row[4], (Instant) row[5], (String) row[6]));
        }
        return byArtifact;
    }

    private static VerificationResult result(ArtifactId artifactId, String recorded, String computed, String claimed,
                                             boolean verified, Instant verifiedAt, String verifiedBy) {
        return new VerificationResult(artifactId, Digest.parse(recorded), digestOrNull(computed),
                digestOrNull(claimed), verified, verifiedAt, verifiedBy);
    }

    private static Digest digestOrNull(String digest) {
        return digest == null ? null : Digest.parse(digest);
    }
}
