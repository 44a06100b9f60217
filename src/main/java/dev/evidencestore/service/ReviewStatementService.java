package dev.evidencestore.service;

import dev.evidencestore.audit.AuditLog;
import dev.evidencestore.audit.TrustedKeys;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.SignedReview;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.persistence.FindingEntity;
import dev.evidencestore.persistence.FindingReviewEntity;
import dev.evidencestore.persistence.IncidentEntity;
import dev.evidencestore.persistence.ReviewEntity;
import dev.evidencestore.persistence.ReviewStatementEntity;
import dev.evidencestore.persistence.RootCauseEntity;
import dev.evidencestore.persistence.RootCauseReviewEntity;
import dev.evidencestore.render.ReviewStatement;
import dev.evidencestore.verify.DsseEnvelope;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * The signed statements of review decisions. A statement names the leaf of the review's own audit entry, which the
 * sequencer numbers after the review committed: it is signed right after, once the entry has its place, and if that
 * did not happen then (the sequencer was behind, the instance stopped), on the first request that asks for it. Once
 * signed it is stored and never signed again.
 */
@ApplicationScoped
public class ReviewStatementService {

    private static final Logger LOG = Logger.getLogger(ReviewStatementService.class);

    private final IncidentService incidents;
    private final FindingService findings;
    private final AuditLog log;
    private final TrustedKeys keys;

    ReviewStatementService(IncidentService incidents, FindingService findings, AuditLog log, TrustedKeys keys) {
        this.incidents = incidents;
        this.findings = findings;
        this.log = log;
        this.keys = keys;
    }

    /** The statements of a finding's decisions. */
    @Transactional
    public List<SignedReview> forFinding(FindingId id) {
        return signed(decided(findings.require(id, LockModeType.NONE)));
    }

    /** The statements of the decisions on an incident's root cause, which must exist. */
    @Transactional
    public List<SignedReview> forRootCause(Workspace workspace, IncidentKey key) {
        IncidentEntity incident = incidents.require(workspace, key);
        RootCauseEntity rootCause = RootCauseEntity.find("incident", incident).firstResult();
        if (rootCause == null) {
            throw Refusal.notFound("incident " + key + " has no root cause yet");
        }
        return signed(decided(rootCause));
    }

    /** Every statement of an incident: its findings' decisions and its root cause's, in log order. */
    @Transactional
    public List<SignedReview> forIncident(Workspace workspace, IncidentKey key) {
        IncidentEntity incident = incidents.require(workspace, key);
        List<FindingEntity> rows = FindingEntity.list("incident", incident);
        Stream<Decided> ofFindings = rows.stream().flatMap(finding -> decided(finding).stream());
        RootCauseEntity rootCause = RootCauseEntity.find("incident", incident).firstResult();
        Stream<Decided> ofRootCause = rootCause == null ? Stream.empty() : decided(rootCause).stream();
        return signed(Stream.concat(ofFindings, ofRootCause).toList());
    }

    /**
     * Signs a review's statement as soon as it committed, if its entry is sequenced by then. Failing here loses
     * nothing: the statement is signed when first asked for.
     */
    void onReview(@Observes(during = TransactionPhase.AFTER_SUCCESS) ReviewRecorded review) {
        try {
            log.awaitSequenced();
            QuarkusTransaction.requiringNew().run(() -> {
                ReviewEntity row = review.record() == ReviewStatement.Record.FINDING
                        ? FindingReviewEntity.findById(review.reviewId())
                        : RootCauseReviewEntity.findById(review.reviewId());
                signedOrNull(Decided.of(row));
            });
        } catch (RuntimeException e) {
            LOG.warnf(e, "the statement of review %s was not signed now; it is signed when first asked for", review);
        }
    }

    /**
     * The statements of these decisions, signing those not signed yet, in log order. A decision whose entry is not
     * yet sequenced is waited for; if the log still lags, the answer is a 503 to retry, never a list missing one.
     */
    private List<SignedReview> signed(List<Decided> decisions) {
        List<SignedReview> signed = new ArrayList<>();
        List<Decided> waiting = new ArrayList<>();
        for (Decided decision : decisions) {
            SignedReview statement = signedOrNull(decision);
            if (statement != null) {
                signed.add(statement);
            } else if (decision.attestable()) {
                waiting.add(decision);
            }
        }
        if (!waiting.isEmpty()) {
            log.awaitSequenced();
            for (Decided decision : waiting) {
                SignedReview statement = signedOrNull(decision);
                if (statement == null) {
                    throw new Refusal(ProblemType.AUDIT_PENDING, "the audit entry of a review of " + decision.recordId()
                            + " is not yet in the log, so its statement cannot be signed yet")
                            .with("retryAfterSeconds", 5);
                }
                signed.add(statement);
            }
        }
        signed.sort(Comparator.comparingLong(SignedReview::leafIndex));
        return signed;
    }

    /** The stored statement, or the one signed now; null while the entry waits, or for a review before statements. */
    private SignedReview signedOrNull(Decided decision) {
        ReviewStatementEntity stored = decision.stored();
        if (stored == null && decision.attestable()) {
            OptionalLong leaf = log.leafIndexOf(decision.review().requestId);
            if (leaf.isEmpty()) {
                return null;
            }
            ReviewStatementEntity statement = new ReviewStatementEntity();
            statement.incidentId = decision.incidentId();
            if (decision.kind() == ReviewStatement.Record.FINDING) {
                statement.findingReviewId = decision.review().id;
            } else {
                statement.rootCauseReviewId = decision.review().id;
            }
            statement.leafIndex = leaf.getAsLong();
            DsseEnvelope envelope = keys.signEnvelope(ReviewStatement.PAYLOAD_TYPE,
                    ReviewStatement.payload(decision.review().statementDraft, keys.origin(), statement.leafIndex));
            statement.keyId = keys.signing().keyId();
            statement.envelope = envelope.toJson();
            statement.signedAt = Clock.now();
            ReviewStatementEntity.insertOnce(statement);
            stored = decision.stored();
        }
        return stored == null ? null : new SignedReview(decision.recordId(), Decision.parse(decision.review().decision),
                decision.review().reviewedAt, stored.leafIndex, stored.keyId, stored.envelope);
    }

    private static List<Decided> decided(FindingEntity finding) {
        return finding.reviews.stream().map(Decided::of).toList();
    }

    private static List<Decided> decided(RootCauseEntity rootCause) {
        return rootCause.reviews.stream().map(Decided::of).toList();
    }
}
