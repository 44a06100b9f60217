package dev.evidencestore.persistence;

import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.Workspace;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.CascadeType;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.OneToMany;
import jakarta.persistence.OrderBy;
import jakarta.persistence.Table;
import org.hibernate.annotations.Fetch;
import org.hibernate.annotations.FetchMode;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

@Entity
@Table(name = "finding")
public class FindingEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "incident_id")
    public IncidentEntity incident;

    public String name;
    public String kind;
    public String statement;
    public String status;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "proposed_at")
    public Instant proposedAt;

    @Column(name = "created_by")
    public String createdBy;

    /** The principal of {@link #createdBy}; null on rows written before principals were recorded. */
    @Column(name = "created_by_principal")
    public String createdByPrincipal;

    @Column(name = "proposed_by")
    public String proposedBy;

    /** The principal of {@link #proposedBy}; null on rows written before principals were recorded. */
    @Column(name = "proposed_by_principal")
    public String proposedByPrincipal;

    public Attribution creator() {
        return Attribution.of(createdBy, createdByPrincipal);
    }

    public Attribution proposer() {
        return Attribution.of(proposedBy, proposedByPrincipal);
    }

    @OneToMany(mappedBy = "finding", cascade = CascadeType.ALL, orphanRemoval = true)
    // one query for the collections of every row a list query loaded, not one per row
    @Fetch(FetchMode.SUBSELECT)
    @OrderBy("position")
    public List<FindingCitationEntity> citations = new ArrayList<>();

    @OneToMany(mappedBy = "finding", cascade = CascadeType.PERSIST)
    // one query for the collections of every row a list query loaded, not one per row
    @Fetch(FetchMode.SUBSELECT)
    @OrderBy("reviewedAt, id")
    public List<FindingReviewEntity> reviews = new ArrayList<>();

    public FindingId findingId() {
        return new FindingId(new Workspace(incident.workspace), new IncidentKey(incident.key), new RecordName(name));
    }

    public ReviewStatus reviewStatus() {
        return ReviewStatus.parse(status);
    }

    /** Replaces the citations, each pinning the digest its artifact has now. */
    public void cite(List<ArtifactEntity> artifacts) {
        citations.clear();
        for (ArtifactEntity artifact : artifacts) {
            FindingCitationEntity citation = new FindingCitationEntity();
            citation.finding = this;
            citation.artifact = artifact;
            citation.digest = artifact.blob.digest;
            citation.position = citations.size();
            citations.add(citation);
        }
    }

    /** Which of {@code ids} exist, in one statement of one index lookup per ID (as {@code ArtifactEntity.standings}). */
    @SuppressWarnings("unchecked")
    public static Set<FindingId> existing(List<FindingId> ids) {
        Set<FindingId> found = new HashSet<>();
        if (ids.isEmpty()) {
            return found;
        }
        List<Number> rows = getEntityManager().createNativeQuery("""
                        SELECT wanted.ord
                        FROM unnest(CAST(:workspaces AS text[]), CAST(:incidents AS text[]), CAST(:names AS text[]))
                             WITH ORDINALITY AS wanted(workspace, incident_key, name, ord)
                        CROSS JOIN LATERAL (
                            SELECT 1 FROM incident i JOIN finding f ON f.incident_id = i.id
                            WHERE i.workspace = wanted.workspace AND i.incident_key = wanted.incident_key
                                AND f.name = wanted.name
                            LIMIT 1) f""")
                .setParameter("workspaces", ids.stream().map(id -> id.workspace().slug()).toArray(String[]::new))
                .setParameter("incidents", ids.stream().map(id -> id.incident().value()).toArray(String[]::new))
                .setParameter("names", ids.stream().map(id -> id.name().value()).toArray(String[]::new))
                .getResultList();
        for (Number ord : rows) {
            found.add(ids.get(ord.intValue() - 1));
        }
        return found;
    }
}
