package dev.evidencestore.persistence;

import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.Review;
import dev.evidencestore.domain.ReviewDraft;
import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;

import java.time.Instant;
import java.util.UUID;

/** The columns every review table shares; reviews are write-once. */
@MappedSuperclass
public abstract class ReviewEntity extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String decision;
    public String note;

    @Column(name = "reviewed_at")
    public Instant reviewedAt;

    @Column(name = "reviewed_by")
    public String reviewedBy;

    /** The principal of {@link #reviewedBy}; null on rows written before principals were recorded. */
    @Column(name = "reviewed_by_principal")
    public String reviewedByPrincipal;

    /**
     * The request ID of the write that recorded this review, which its audit entry carries too; null on rows written
     * before V10__review_statements.sql, or outside an audited write.
     */
    @Column(name = "request_id")
    public UUID requestId;

    /**
     * The in-toto statement of this decision without its place in the log, captured in the review's own transaction
     * (what was cited, and the verifications relied on, as the reviewer saw them), so that signing it later, once the
     * entry is sequenced, attests exactly that even if a rejected root cause was revised meanwhile.
     */
    @Column(name = "statement_draft")
    public String statementDraft;

    public void record(ReviewDraft draft, Instant at, Attribution reviewer, UUID request) {
        requestId = request;
        reviewedBy = reviewer.name();
        reviewedByPrincipal = reviewer.principalForm();
        decision = draft.decision().wire();
        note = draft.note();
        reviewedAt = at;
    }

    public Attribution reviewer() {
        return Attribution.of(reviewedBy, reviewedByPrincipal);
    }

    public Review toReview() {
        return new Review(Decision.parse(decision), note, reviewedAt, reviewedBy);
    }
}
