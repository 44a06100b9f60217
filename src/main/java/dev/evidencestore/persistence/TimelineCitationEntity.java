package dev.evidencestore.persistence;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.TimelineCitation;
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
import org.hibernate.annotations.Immutable;

import java.util.List;

/** A write-once citation of an artifact by a timeline entry, pinning the digest the artifact had. */
@Entity
@Immutable
@Table(name = "timeline_citation")
public class TimelineCitationEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "entry_id")
    public TimelineEntryEntity entry;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "artifact_id")
    public ArtifactEntity artifact;

    public String digest;

    /** Where the citation stands among the entry's citations, as the responder listed them. */
    public int position;

    public TimelineCitation toCitation() {
        ArtifactId artifactId = new ArtifactId(new Workspace(artifact.incident.workspace),
                new IncidentKey(artifact.incident.key), new RecordName(artifact.name));
        return new TimelineCitation(artifactId, Digest.parse(digest));
    }

    /** A timeline entry's number, and the digest its citation pinned. */
    public record Citing(int number, String digest) {
    }

    /** The timeline entries citing the artifact with row ID {@code artifactId}, in the timeline's order. */
    @SuppressWarnings("unchecked")
    public static List<Citing> citing(Long artifactId) {
        List<Object[]> rows = getEntityManager().createNativeQuery("""
                        SELECT e.number, c.digest FROM timeline_citation c JOIN timeline_entry e ON e.id = c.entry_id
                        WHERE c.artifact_id = :artifact ORDER BY e.at, e.number""")
                .setParameter("artifact", artifactId).getResultList();
        return rows.stream().map(row -> new Citing(((Number) row[0]).intValue(), (String) row[1])).toList();
    }
}
