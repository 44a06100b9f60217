package dev.evidencestore.persistence;

import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.RootCauseId;
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
import java.util.List;

@Entity
@Table(name = "root_cause")
public class RootCauseEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "incident_id")
    public IncidentEntity incident;

    public String statement;
    public String confidence;
    public String status;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "proposed_at")
    public Instant proposedAt;

    @Column(name = "proposed_by")
    public String proposedBy;

    /** The principal of {@link #proposedBy}; null on rows written before principals were recorded. */
    @Column(name = "proposed_by_principal")
    public String proposedByPrincipal;

    public Attribution proposer() {
        return Attribution.of(proposedBy, proposedByPrincipal);
    }

    @OneToMany(mappedBy = "rootCause", cascade = CascadeType.ALL, orphanRemoval = true)
    // one query for the collections of every row a list query loaded, not one per row
    @Fetch(FetchMode.SUBSELECT)
    @OrderBy("position")
    public List<RootCauseFindingEntity> findings = new ArrayList<>();

    @OneToMany(mappedBy = "rootCause", cascade = CascadeType.PERSIST)
    // one query for the collections of every row a list query loaded, not one per row
    @Fetch(FetchMode.SUBSELECT)
    @OrderBy("reviewedAt, id")
    public List<RootCauseReviewEntity> reviews = new ArrayList<>();

    public ReviewStatus reviewStatus() {
        return ReviewStatus.parse(status);
    }

    public RootCauseId rootCauseId() {
        return new RootCauseId(new Workspace(incident.workspace), new IncidentKey(incident.key));
    }

    public void cite(List<FindingEntity> cited) {
        findings.clear();
        for (FindingEntity finding : cited) {
            RootCauseFindingEntity link = new RootCauseFindingEntity();
            link.rootCause = this;
            link.finding = finding;
            link.position = findings.size();
            findings.add(link);
        }
    }
}
