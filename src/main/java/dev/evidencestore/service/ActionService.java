package dev.evidencestore.service;

import dev.evidencestore.domain.ActionDraft;
import dev.evidencestore.domain.ActionItem;
import dev.evidencestore.domain.ActionPatch;
import dev.evidencestore.domain.ActionStatus;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.ActionItemEntity;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/** The follow-up actions of incidents, numbered within each incident; overdue is judged on today's UTC date. */
@ApplicationScoped
public class ActionService {

    private static final String FETCH = "from ActionItemEntity a join fetch a.incident i ";

    private final IncidentService incidents;
    private final EntityManager entityManager;
    private final CurrentActor actor;

    ActionService(IncidentService incidents, EntityManager entityManager, CurrentActor actor) {
        this.actor = actor;
        this.incidents = incidents;
        this.entityManager = entityManager;
    }

    /** Records an action. The incident row stays locked until commit, so the next number is taken by one writer. */
    @Transactional
    public ActionItem create(Workspace workspace, IncidentKey key, ActionDraft draft) {
        IncidentEntity incident = incidents.requireLocked(workspace, key);
        ActionItemEntity item = new ActionItemEntity();
        item.incident = incident;
        item.number = incidents.nextNumber(incident, ActionItemEntity.class);
        item.action = draft.action();
        item.owner = draft.owner();
        item.due = draft.due();
        item.status = draft.status().wire();
        item.createdAt = Clock.now();
        item.updatedAt = item.createdAt;
        item.createdBy = actor.name();
        item.createdByPrincipal = actor.principal();
        item.persist();
        return item.toActionItem(today());
    }

    @Transactional
    public ActionItem get(SequenceId id) {
        return row(id).toActionItem(today());
    }

    /** Every action of the incident, soonest due first, then in the order they were recorded. */
    @Transactional
    public List<ActionItem> list(Workspace workspace, IncidentKey key) {
        IncidentEntity incident = incidents.require(workspace, key);
        LocalDate today = today();
        return ActionItemEntity.<ActionItemEntity>find(FETCH + "where a.incident = ?1 order by a.due, a.number",
                incident).stream().map(item -> item.toActionItem(today)).toList();
    }

    /** Changes the status and due date as the patch says; updatedAt moves only when something changed. */
    @Transactional
    public ActionItem patch(SequenceId id, ActionPatch patch) {
        ActionItemEntity item = row(id);
        // locked and re-read: two patches of different fields must not undo each other
        entityManager.lock(item, LockModeType.PESSIMISTIC_WRITE);
        entityManager.refresh(item);
        ActionStatus status = patch.statusOr(ActionStatus.parse(item.status));
        LocalDate due = patch.dueOr(item.due);
        if (!status.wire().equals(item.status) || !due.equals(item.due)) {
            item.status = status.wire();
            item.due = due;
            item.updatedAt = Clock.now();
        }
        return item.toActionItem(today());
    }

    private static ActionItemEntity row(SequenceId id) {
        ActionItemEntity item = ActionItemEntity.<ActionItemEntity>find(
                FETCH + "where i.workspace = ?1 and i.key = ?2 and a.number = ?3",
                id.workspace().slug(), id.incident().value(), id.number()).firstResult();
        if (item == null) {
            throw Refusal.notFound("no action " + id);
        }
        return item;
    }

    private static LocalDate today() {
        return LocalDate.ofInstant(Clock.now(), ZoneOffset.UTC);
    }
}
