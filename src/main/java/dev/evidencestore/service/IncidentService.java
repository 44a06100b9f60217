package dev.evidencestore.service;

import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.IncidentPatch;
import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.PageCursor;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import org.hibernate.exception.ConstraintViolationException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

@ApplicationScoped
public class IncidentService {

    private final CurrentActor actor;
    private final KnownIncidents known;

    IncidentService(CurrentActor actor, KnownIncidents known) {
        this.actor = actor;
        this.known = known;
    }

    @Transactional
    public Incident create(Workspace workspace, IncidentKey key, IncidentDetails details) {
        if (find(workspace, key) != null) {
            throw exists(workspace, key);
        }
        IncidentEntity incident = new IncidentEntity();
        incident.workspace = workspace.slug();
        incident.key = key.value();
        incident.describe(details);
        incident.createdAt = Clock.now();
        incident.updatedAt = incident.createdAt;
        incident.createdBy = actor.name();
        incident.createdByPrincipal = actor.principal();
        try {
            incident.persistAndFlush();
        } catch (ConstraintViolationException e) {
            throw exists(workspace, key);
        }
        return incident.toIncident();
    }

    @Transactional
    public Incident get(Workspace workspace, IncidentKey key) {
        return require(workspace, key).toIncident();
    }

    @Transactional
    public Incident patch(Workspace workspace, IncidentKey key, IncidentPatch patch) {
        // locked: two patches of different fields must not undo each other
        IncidentEntity incident = requireLocked(workspace, key);
        IncidentDetails before = incident.details();
        IncidentDetails after = patch.applyTo(before);
        if (!after.equals(before)) {
            incident.describe(after);
            incident.updatedAt = Clock.now();
        }
        return incident.toIncident();
    }

    /** Newest first; {@code after} is the cursor of the previous page, or null for the first. */
    @Transactional
    public Page<Incident> list(Workspace workspace, int limit, PageCursor after) {
        Map<String, Object> parameters = new HashMap<>(Map.of("workspace", workspace.slug()));
        String query = "workspace = :workspace";
        if (after != null) {
            query += " and (createdAt < :before or (createdAt = :before and id < :beforeId))";
            parameters.put("before", after.createdAt());
            parameters.put("beforeId", after.id());
        }
        // range is inclusive: one row more than the page tells whether another page follows
        List<IncidentEntity> rows = IncidentEntity.<IncidentEntity>find(query + " order by createdAt desc, id desc",
                parameters).range(0, limit).list();
        List<Incident> items = rows.stream().limit(limit).map(IncidentEntity::toIncident).toList();
        PageCursor next = null;
        if (rows.size() > limit) {
            IncidentEntity last = rows.get(limit - 1);
            next = new PageCursor(last.createdAt, last.id);
        }
        return new Page<>(items, next);
    }

    /**
     * The incident's row, for other services working inside the same transaction. A known incident is loaded by its
     * row ID, which the transaction's persistence context answers after the first time; a lookup by workspace and key
     * builds its select anew on every call.
     */
    IncidentEntity require(Workspace workspace, IncidentKey key) {
        OptionalLong id = known.known(workspace, key);
        IncidentEntity incident = id.isPresent() ? IncidentEntity.findById(id.getAsLong()) : find(workspace, key);
        if (incident == null) {
            throw Refusal.notFound("no incident " + key + " in workspace " + workspace);
        }
        if (id.isEmpty()) {
            known.seen(workspace, key, incident.id);
        }
        return incident;
    }

    /** The incident's row ID, asking the database only the first time; a 404 refusal when there is none. */
    long requireId(Workspace workspace, IncidentKey key) {
        OptionalLong id = known.known(workspace, key);
        return id.isPresent() ? id.getAsLong() : require(workspace, key).id;
    }

    /**
     * The incident's row, locked until the transaction ends, so that records numbered within the incident (timeline
     * entries, actions) are numbered one writer at a time and concurrent writers never pick the same number.
     */
    IncidentEntity requireLocked(Workspace workspace, IncidentKey key) {
        IncidentEntity incident = IncidentEntity.<IncidentEntity>find("workspace = ?1 and key = ?2", workspace.slug(),
                key.value()).withLock(LockModeType.PESSIMISTIC_WRITE).firstResult();
        if (incident == null) {
            throw Refusal.notFound("no incident " + key + " in workspace " + workspace);
        }
        return incident;
    }

    /**
     * The next number of a record numbered within the incident (an entity with {@code incident} and {@code number});
     * callers hold the lock of {@link #requireLocked}, so no two writers take the same number.
     */
    int nextNumber(IncidentEntity incident, Class<?> numbered) {
        return IncidentEntity.getEntityManager().createQuery("select coalesce(max(r.number), 0) from "
                        + numbered.getSimpleName() + " r where r.incident = ?1", Integer.class)
                .setParameter(1, incident).getSingleResult() + 1;
    }

    private static IncidentEntity find(Workspace workspace, IncidentKey key) {
        return IncidentEntity.byKey(workspace, key);
    }

    private static Refusal exists(Workspace workspace, IncidentKey key) {
        return new Refusal(ProblemType.INCIDENT_EXISTS, "incident " + key + " already exists in workspace " + workspace);
    }
}
