package dev.evidencestore.service;

import dev.evidencestore.persistence.FindingReviewEntity;
import dev.evidencestore.persistence.ReviewEntity;
import dev.evidencestore.persistence.ReviewStatementEntity;
import dev.evidencestore.persistence.RootCauseReviewEntity;
import dev.evidencestore.render.ReviewStatement;

/** One review decision as its statement needs it: the row, what kind of record it decided, that record's ID. */
record Decided(ReviewEntity review, ReviewStatement.Record kind, String recordId, long incidentId) {

    static Decided of(FindingReviewEntity review) {
        return new Decided(review, ReviewStatement.Record.FINDING, review.finding.findingId().toString(),
                review.finding.incident.id);
    }

    static Decided of(RootCauseReviewEntity review) {
        return new Decided(review, ReviewStatement.Record.ROOT_CAUSE, review.rootCause.rootCauseId().toString(),
                review.rootCause.incident.id);
    }

    static Decided of(ReviewEntity review) {
        return review instanceof FindingReviewEntity finding ? of(finding) : of((RootCauseReviewEntity) review);
    }

    /**
     * Whether the decision can have a statement: it was recorded by an audited write, after statements existed.
     * Reviews from before V10__review_statements.sql have neither a request ID nor a draft, and stay unsigned.
     */
    boolean attestable() {
        return review.requestId != null && review.statementDraft != null;
    }

    /** Its statement as stored, or null while it is not signed. */
    ReviewStatementEntity stored() {
        return kind == ReviewStatement.Record.FINDING ? ReviewStatementEntity.ofFindingReview(review.id)
                : ReviewStatementEntity.ofRootCauseReview(review.id);
    }
}
