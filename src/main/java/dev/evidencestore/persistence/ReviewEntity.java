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

    public void record(ReviewDraft draft, Instant at, Attribution reviewer) {
        reviewedBy = reviewer.name();
        reviewedByPrincipal = reviewer.principalForm();
        decision = draft.decision().wire();
        note = draft.note();
        reviewedAt = at;
    }

    public Review toReview() {
        return new Review(Decision.parse(decision), note, reviewedAt, reviewedBy);
    }
}
