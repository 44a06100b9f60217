package dev.evidencestore.persistence;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Citation;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.Table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

@Entity
@Table(name = "finding_citation")
public class FindingCitationEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "finding_id")
    public FindingEntity finding;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "artifact_id")
    public ArtifactEntity artifact;

    /** The digest the artifact had when it was cited. */
    public String digest;

    public int position;

    /**
     * The citations of every finding of one incident, in order, by the finding's row ID: one query of the columns a
     * citation needs, where each finding's cited artifacts would otherwise be loaded as entities, a batch at a time.
     */
    public static Map<Long, List<Citation>> ofIncident(IncidentEntity incident,
                                                       Function<ArtifactId, VerificationResult> latest) {
        Workspace workspace = new Workspace(incident.workspace);
        IncidentKey key = new IncidentKey(incident.key);
        List<Object[]> rows = getEntityManager().createQuery("""
                        select c.finding.id, a.name, c.digest from FindingCitationEntity c join c.artifact a
                        where c.finding.incident = ?1 order by c.finding.id, c.position""", Object[].class)
                .setParameter(1, incident).getResultList();
        Map<Long, List<Citation>> byFinding = new HashMap<>();
        for (Object[] row : rows) {
            ArtifactId id = new ArtifactId(workspace, key, new RecordName((String) row[1]));
            byFinding.computeIfAbsent((Long) row[0], ignored -> new ArrayList<>())
                    .add(new Citation(id, Digest.parse((String) row[2]), latest.apply(id)));
        }
        return byFinding;
    }
}
