package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.audit.EntryLink;
import dev.evidencestore.domain.Acceptance;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Citation;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Finding;
import dev.evidencestore.domain.FindingDraft;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.FindingPatch;
import dev.evidencestore.domain.FourEyes;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.ReviewDraft;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.ReviewTransitions;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.ArtifactEntity;
import dev.evidencestore.persistence.FindingCitationEntity;
import dev.evidencestore.persistence.FindingEntity;
import dev.evidencestore.persistence.FindingReviewEntity;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.persistence.ReviewEntity;
import dev.evidencestore.persistence.VerificationEntity;
import dev.evidencestore.render.ReviewStatement;
import dev.evidencestore.security.CurrentActor;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import org.hibernate.exception.ConstraintViolationException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Findings and their reviews. The chain is enforced here: a finding cites artifacts of its own incident, a gap
 * cites only source-unavailable records, and acceptance needs every cited artifact verified since the finding was
 * proposed. A decided finding is frozen.
 */
@ApplicationScoped
public class FindingService {

    private static final String FETCH = "from FindingEntity f join fetch f.incident i ";

    private final IncidentService incidents;
    private final ArtifactService artifacts;
    private final EntityManager entityManager;
    private final CurrentActor actor;
    private final boolean fourEyes;
    private final VerificationService verifications;
    private final EntryLink link;
    private final Event<ReviewRecorded> reviewed;

    FindingService(IncidentService incidents, ArtifactService artifacts, VerificationService verifications,
                   EntityManager entityManager, CurrentActor actor, EvidenceConfig config, EntryLink link,
                   Event<ReviewRecorded> reviewed) {
        this.link = link;
        this.reviewed = reviewed;
        this.incidents = incidents;
        this.artifacts = artifacts;
        this.verifications = verifications;
        this.entityManager = entityManager;
        this.actor = actor;
        this.fourEyes = config.review().fourEyes();
    }

    @Transactional
    public FindingBinding propose(Workspace workspace, IncidentKey key, FindingDraft draft) {
        IncidentEntity incident = incidents.require(workspace, key);
        FindingEntity existing = find(workspace, key, draft.name().value());
        if (existing != null) {
            return new FindingBinding(retried(existing, draft), false);
        }
        FindingEntity finding = new FindingEntity();
        finding.incident = incident;
        finding.name = draft.name().value();
        finding.kind = draft.kind().wire();
        finding.statement = draft.statement();
        finding.status = ReviewStatus.PROPOSED.wire();
        finding.createdAt = Clock.now();
        finding.proposedAt = finding.createdAt;
        finding.createdBy = actor.name();
        finding.createdByPrincipal = actor.principal();
        finding.proposedBy = finding.createdBy;
        finding.proposedByPrincipal = finding.createdByPrincipal;
        finding.cite(artifacts.cited(incident, draft.artifactIds(), draft.kind().citationRule()));
        try {
            finding.persistAndFlush();
        } catch (ConstraintViolationException e) {
            throw new Refusal(ProblemType.FINDING_NAME_TAKEN,
                    "a finding named " + draft.name() + " was proposed at the same moment; retry to compare");
        }
        return new FindingBinding(view(finding), true);
    }

    private Finding retried(FindingEntity existing, FindingDraft draft) {
        Finding stored = view(existing);
        if (!draft.sameAs(stored)) {
            throw new Refusal(ProblemType.FINDING_NAME_TAKEN,
                    stored.id() + " already exists and says something else; propose another name")
                    .with("findingId", stored.id().toString());
        }
        return stored;
    }

    @Transactional
    public Finding get(FindingId id) {
        return view(require(id, LockModeType.NONE));
    }

    /** The incident's findings by name, optionally only those of one kind or status. */
    @Transactional
    public List<Finding> list(Workspace workspace, IncidentKey key, FindingKind kind, ReviewStatus status) {
        return list(workspace, key, kind, status, verifications.listForIncident(workspace, key));
    }

    /** As {@link #list}, with the incident's verifications already at hand (oldest first per artifact). */
    List<Finding> list(Workspace workspace, IncidentKey key, FindingKind kind, ReviewStatus status,
                       Map<ArtifactId, List<VerificationResult>> checks) {
        // the incident is in the persistence context already: joined to every finding, its row came back each time
        IncidentEntity incident = incidents.require(workspace, key);
        StringBuilder query = new StringBuilder("from FindingEntity f where f.incident = :incident");
        Map<String, Object> parameters = new HashMap<>(Map.of("incident", incident));
        if (kind != null) {
            query.append(" and f.kind = :kind");
            parameters.put("kind", kind.wire());
        }
        if (status != null) {
            query.append(" and f.status = :status");
            parameters.put("status", status.wire());
        }
        // a list, not a stream: subselect fetching of reviews needs the whole result registered
        List<FindingEntity> found = FindingEntity.<FindingEntity>find(query + " order by f.name", parameters).list();
        Map<Long, List<Citation>> citations = FindingCitationEntity.ofIncident(incident,
                id -> latest(checks.getOrDefault(id, List.of())));
        return found.stream().map(finding -> view(finding, citations.getOrDefault(finding.id, List.of()))).toList();
    }

    /** The finding as clients see it, with the incident's verifications already at hand (oldest first). */
    Finding view(FindingEntity finding, Map<ArtifactId, List<VerificationResult>> checks) {
        return view(finding, id -> latest(checks.getOrDefault(id, List.of())));
    }

    private static VerificationResult latest(List<VerificationResult> oldestFirst) {
        return oldestFirst.isEmpty() ? null : oldestFirst.get(oldestFirst.size() - 1);
    }

    /** Changes a proposed finding; it counts as proposed anew, so earlier verifications no longer support it. */
    @Transactional
    public Finding revise(FindingId id, FindingPatch patch) {
        FindingEntity finding = require(id, LockModeType.PESSIMISTIC_WRITE);
        requireProposed(finding);
        boolean changed = false;
        if (patch.statement() != null && !patch.statement().equals(finding.statement)) {
            finding.statement = patch.statement();
            changed = true;
        }
        if (patch.artifactIds() != null && !patch.artifactIds().equals(citedIds(finding))) {
            List<ArtifactEntity> cited = artifacts.cited(finding.incident, patch.artifactIds(),
                    FindingKind.parse(finding.kind).citationRule());
            finding.citations.clear();
            entityManager.flush(); // the old rows must go before the new ones hit the unique key
            finding.cite(cited);
            changed = true;
        }
        if (changed) {
            finding.proposedAt = Clock.now();
            finding.proposedBy = actor.name();
            finding.proposedByPrincipal = actor.principal();
        }
        return view(finding);
    }

    @Transactional
    public Finding review(FindingId id, ReviewDraft draft) {
        FindingEntity finding = require(id, LockModeType.PESSIMISTIC_WRITE);
        requireProposed(finding);
        Attribution reviewer = actor.attribution();
        if (draft.decision() == Decision.ACCEPTED) {
            if (fourEyes) {
                FourEyes.requireOtherProposer(reviewer, finding.findingId(), finding.creator(),
                        finding.proposer());
            }
            requireVerifiedSinceProposed(finding);
            if (fourEyes) {
                FourEyes.requireIndependentEvidence(reviewer, evidenceChecks(finding));
            }
        }
        FindingReviewEntity review = new FindingReviewEntity();
        review.finding = finding;
        review.record(draft, Clock.now(), reviewer, link.requestId());
        review.statementDraft = StatementDrafts.ofFinding(finding, review);
        finding.reviews.add(review);
        finding.status = draft.decision().wire();
        review.persist();
        reviewed.fire(new ReviewRecorded(ReviewStatement.Record.FINDING, review.id));
        return view(finding);
    }

    private static void requireProposed(FindingEntity finding) {
        ReviewTransitions.requireFindingProposed(finding.findingId(), finding.reviewStatus());
    }

    private void requireVerifiedSinceProposed(FindingEntity finding) {
        Acceptance.requireVerifiedSince(finding.proposedAt, finding.citations.stream().map(citation -> {
            ArtifactId id = citation.artifact.artifactId();
            VerificationEntity latest = latestVerification(citation.artifact);
            return new Acceptance.PinnedEvidence(id, Digest.parse(citation.digest),
                    latest == null ? null : latest.toResult(id));
        }).toList());
    }

    /** For each citation: who uploaded the artifact and who ran the passing verifications since the proposal. */
    List<FourEyes.EvidenceCheck> evidenceChecks(FindingEntity finding) {
        return finding.citations.stream().map(citation -> new FourEyes.EvidenceCheck(
                citation.artifact.artifactId().toString(), citation.artifact.creator(),
                VerificationEntity.<VerificationEntity>find("""
                                artifact = ?1 and verified = true and verifiedAt > ?2 and recordedDigest = ?3""",
                                citation.artifact, finding.proposedAt, citation.digest)
                        .stream().map(VerificationEntity::verifier).toList())).toList();
    }

    private static List<ArtifactId> citedIds(FindingEntity finding) {
        return finding.citations.stream().map(c -> c.artifact.artifactId()).toList();
    }

    /** The finding as clients see it, with each citation's latest verification. */
    Finding view(FindingEntity finding) {
        Map<ArtifactId, VerificationResult> latest = new HashMap<>();
        for (FindingCitationEntity citation : finding.citations) {
            VerificationEntity verification = latestVerification(citation.artifact);
            ArtifactId id = citation.artifact.artifactId();
            latest.put(id, verification == null ? null : verification.toResult(id));
        }
        return view(finding, latest::get);
    }

    private static Finding view(FindingEntity finding, Function<ArtifactId, VerificationResult> latest) {
        return view(finding, finding.citations.stream()
                .map(c -> {
                    ArtifactId id = c.artifact.artifactId();
                    return new Citation(id, Digest.parse(c.digest), latest.apply(id));
                })
                .toList());
    }

    private static Finding view(FindingEntity finding, List<Citation> citations) {
        return new Finding(finding.findingId(), FindingKind.parse(finding.kind), finding.statement,
                finding.reviewStatus(), citations, finding.reviews.stream().map(ReviewEntity::toReview).toList(),
                finding.createdAt, finding.proposedAt, finding.createdBy);
    }

    static VerificationEntity latestVerification(ArtifactEntity artifact) {
        return VerificationEntity.<VerificationEntity>find("artifact = ?1 order by verifiedAt desc, id desc", artifact)
                .firstResult();
    }

    /** The finding's row, locked as asked, for this and other services inside one transaction. */
    FindingEntity require(FindingId id, LockModeType lock) {
        FindingEntity finding = find(id.workspace(), id.incident(), id.name().value());
        if (finding == null) {
            throw Refusal.notFound("no finding " + id);
        }
        if (lock != LockModeType.NONE) {
            entityManager.lock(finding, lock);
            entityManager.refresh(finding);
        }
        return finding;
    }

    private static FindingEntity find(Workspace workspace, IncidentKey key, String name) {
        return FindingEntity.<FindingEntity>find(FETCH + "where i.workspace = ?1 and i.key = ?2 and f.name = ?3",
                workspace.slug(), key.value(), name).firstResult();
    }
}
