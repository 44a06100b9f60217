package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.audit.EntryLink;
import dev.evidencestore.domain.Acceptance;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.CitationProblem;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Confidence;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.Finding;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.FourEyes;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.ReviewDraft;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.ReviewTransitions;
import dev.evidencestore.domain.RootCause;
import dev.evidencestore.domain.RootCauseDraft;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.FindingEntity;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.persistence.ReviewEntity;
import dev.evidencestore.persistence.RootCauseEntity;
import dev.evidencestore.persistence.RootCauseReviewEntity;
import dev.evidencestore.render.ReviewStatement;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one root cause of an incident. It rests on findings of the same incident, and is accepted only when every
 * finding it cites is accepted and at least one of them supports it; then it is frozen.
 */
@ApplicationScoped
public class RootCauseService {

    private final IncidentService incidents;
    private final FindingService findings;
    private final EntityManager entityManager;
    private final CurrentActor actor;
    private final boolean fourEyes;
    private final EntryLink link;
    private final Event<ReviewRecorded> reviewed;

    RootCauseService(IncidentService incidents, FindingService findings, EntityManager entityManager,
                     CurrentActor actor, EvidenceConfig config, EntryLink link, Event<ReviewRecorded> reviewed) {
        this.link = link;
        this.reviewed = reviewed;
        this.incidents = incidents;
        this.findings = findings;
        this.entityManager = entityManager;
        this.actor = actor;
        this.fourEyes = config.review().fourEyes();
    }

    /** Proposes the root cause, or replaces a proposed or rejected one; an identical PUT changes nothing. */
    @Transactional
    public RootCauseBinding put(Workspace workspace, IncidentKey key, RootCauseDraft draft) {
        IncidentEntity incident = incidents.requireLocked(workspace, key);
        RootCauseEntity rootCause = find(incident);
        // an identical PUT is a retry; a rejected root cause put again is proposed anew
        if (rootCause != null && rootCause.reviewStatus() != ReviewStatus.REJECTED && draft.sameAs(view(rootCause))) {
            return new RootCauseBinding(view(rootCause), false);
        }
        if (rootCause != null) {
            ReviewTransitions.requireRootCauseRevisable(rootCause.rootCauseId(), rootCause.reviewStatus());
        }
        List<FindingEntity> cited = cited(incident, draft.findingIds());
        boolean created = rootCause == null;
        if (created) {
            rootCause = new RootCauseEntity();
            rootCause.incident = incident;
            rootCause.createdAt = Clock.now();
        } else {
            rootCause.findings.clear();
            entityManager.flush(); // the old links must go before the new ones hit the unique key
        }
        rootCause.statement = draft.statement();
        rootCause.confidence = draft.confidence().wire();
        rootCause.status = ReviewStatus.PROPOSED.wire();
        rootCause.proposedAt = Clock.now();
        rootCause.proposedBy = actor.name();
        rootCause.proposedByPrincipal = actor.principal();
        rootCause.cite(cited);
        rootCause.persist();
        return new RootCauseBinding(view(rootCause), created);
    }

    @Transactional
    public RootCause get(Workspace workspace, IncidentKey key) {
        return view(require(incidents.require(workspace, key)));
    }

    /** The root cause, or empty while none has been proposed. */
    @Transactional
    public Optional<RootCause> find(Workspace workspace, IncidentKey key) {
        return Optional.ofNullable(find(incidents.require(workspace, key))).map(this::view);
    }

    /**
     * As {@link #find}, with the incident's findings already viewed (by the same transaction): viewed again, their
     * cited artifacts were loaded one batch at a time.
     */
    Optional<RootCause> find(Workspace workspace, IncidentKey key, Map<FindingId, Finding> viewed) {
        return Optional.ofNullable(find(incidents.require(workspace, key)))
                .map(rootCause -> view(rootCause, finding -> viewed.computeIfAbsent(finding.findingId(),
                        ignored -> findings.view(finding))));
    }

    @Transactional
    public RootCause review(Workspace workspace, IncidentKey key, ReviewDraft draft) {
        RootCauseEntity rootCause = require(incidents.requireLocked(workspace, key));
        ReviewTransitions.requireRootCauseProposed(rootCause.rootCauseId(), rootCause.reviewStatus());
        Attribution reviewer = actor.attribution();
        if (draft.decision() == Decision.ACCEPTED) {
            if (fourEyes) {
                FourEyes.requireOtherProposer(reviewer, rootCause.rootCauseId(), rootCause.proposer());
            }
            requireSupported(rootCause);
            if (fourEyes) {
                FourEyes.requireIndependentEvidence(reviewer, rootCause.findings.stream()
                        .flatMap(link -> findings.evidenceChecks(link.finding).stream()).toList());
            }
        }
        RootCauseReviewEntity review = new RootCauseReviewEntity();
        review.rootCause = rootCause;
        review.record(draft, Clock.now(), reviewer, link.requestId());
        review.statementDraft = StatementDrafts.ofRootCause(rootCause, review);
        rootCause.reviews.add(review);
        rootCause.status = draft.decision().wire();
        review.persist();
        reviewed.fire(new ReviewRecorded(ReviewStatement.Record.ROOT_CAUSE, review.id));
        return view(rootCause);
    }

    private static void requireSupported(RootCauseEntity rootCause) {
        Acceptance.requireSupported(rootCause.findings.stream().map(link -> new Acceptance.CitedFinding(
                link.finding.findingId(), link.finding.reviewStatus(), FindingKind.parse(link.finding.kind))).toList());
    }

    private List<FindingEntity> cited(IncidentEntity incident, List<FindingId> ids) {
        List<FindingEntity> rows = new ArrayList<>();
        List<CitationProblem> problems = new ArrayList<>();
        for (FindingId id : ids) {
            FindingEntity row = id.workspace().slug().equals(incident.workspace) ? findOrNull(id) : null;
            if (row == null) {
                problems.add(new CitationProblem(id.toString(), CitationProblem.UNKNOWN));
            } else if (!row.incident.id.equals(incident.id)) {
                problems.add(new CitationProblem(id.toString(), CitationProblem.OTHER_INCIDENT));
            } else {
                rows.add(row);
            }
        }
        if (!problems.isEmpty()) {
            throw CitationProblem.refusal("finding", problems);
        }
        return rows;
    }

    private FindingEntity findOrNull(FindingId id) {
        try {
            return findings.require(id, LockModeType.NONE);
        } catch (Refusal notFound) {
            return null;
        }
    }

    private RootCause view(RootCauseEntity rootCause) {
        return view(rootCause, findings::view);
    }

    private static RootCause view(RootCauseEntity rootCause, Function<FindingEntity, Finding> findingView) {
        List<Finding> cited = rootCause.findings.stream().map(link -> findingView.apply(link.finding)).toList();
        return new RootCause(rootCause.rootCauseId(), rootCause.statement,
                Confidence.parse(rootCause.confidence), rootCause.reviewStatus(), cited,
                rootCause.reviews.stream().map(ReviewEntity::toReview).toList(), rootCause.createdAt,
                rootCause.proposedAt, rootCause.proposedBy);
    }

    private static RootCauseEntity find(IncidentEntity incident) {
        return RootCauseEntity.<RootCauseEntity>find("incident = ?1", incident).firstResult();
    }

    private static RootCauseEntity require(IncidentEntity incident) {
        RootCauseEntity rootCause = find(incident);
        if (rootCause == null) {
            throw Refusal.notFound("incident " + incident.key + " has no root cause yet");
        }
        return rootCause;
    }
}
