package dev.evidencestore.persistence;

import dev.evidencestore.domain.ActionItem;
import dev.evidencestore.domain.ActionStatus;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.SequenceId;
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
import java.time.LocalDate;

/** A follow-up action of an incident; its status and due date change, and the database refuses to delete it. */
@Entity
@Table(name = "action_item")
public class ActionItemEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @ManyToOne(fetch = FetchType.LAZY)
    @JoinColumn(name = "incident_id")
    public IncidentEntity incident;

    public int number;
    public String action;
    public String owner;
    public LocalDate due;
    public String status;

    @Column(name = "created_at")
    public Instant createdAt;

    @Column(name = "created_by")
    public String createdBy;

    /** The principal of {@link #createdBy}; null on rows written before principals were recorded. */
    @Column(name = "created_by_principal")
    public String createdByPrincipal;

    @Column(name = "updated_at")
    public Instant updatedAt;

    public ActionItem toActionItem(LocalDate today) {
        SequenceId id = new SequenceId(SequenceId.ACTION, new Workspace(incident.workspace),
                new IncidentKey(incident.key), number);
        ActionStatus current = ActionStatus.parse(status);
        return new ActionItem(id, action, owner, due, current, ActionItem.overdueOn(current, due, today), createdAt,
                updatedAt, createdBy);
    }
}
