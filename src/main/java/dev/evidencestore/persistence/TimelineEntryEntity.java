package dev.evidencestore.persistence;

import dev.evidencestore.domain.Elapsed;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.domain.TimelineCitation;
import dev.evidencestore.domain.TimelineEntry;
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
import org.hibernate.annotations.Immutable;

import java.time.Instant;
import java.util.List;

/** A row of the write-once timeline; the database refuses to change or delete it. */
@Entity
@Immutable
@Table(name = "timeline_entry")
public class TimelineEntryEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "incident_id")
    public IncidentEntity incident;

    public int number;
    public Instant at;
    public String event;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "created_by")
    public String createdBy;

    /** The principal of {@link #createdBy}; null on rows written before principals were recorded. */
    @Column(name = "created_by_principal")
    public String createdByPrincipal;

    /** The entry as reported now: its elapsed time follows the incident's current impact start. */
    public TimelineEntry toTimelineEntry(List<TimelineCitation> citations) {
        SequenceId id = new SequenceId(SequenceId.TIMELINE, new Workspace(incident.workspace),
                new IncidentKey(incident.key), number);
        return new TimelineEntry(id, at, Elapsed.between(incident.impactStart, at), event, citations, createdAt,
                createdBy);
    }
}
