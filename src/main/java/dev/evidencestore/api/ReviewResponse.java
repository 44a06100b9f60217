package dev.evidencestore.api;

import dev.evidencestore.domain.Review;

import java.time.Instant;

public record ReviewResponse(String decision, String note, Instant reviewedAt, String reviewedBy) {

    static ReviewResponse of(Review review) {
        return new ReviewResponse(review.decision().wire(), review.note(), review.reviewedAt(), review.reviewedBy());
    }
}
