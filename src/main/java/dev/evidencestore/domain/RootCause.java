package dev.evidencestore.domain;

import java.time.Instant;
import java.util.List;

/** An incident's root cause with its whole chain: findings, their pinned artifacts and latest verifications. */
public record RootCause(
        RootCauseId id,
        String statement,
        Confidence confidence,
        ReviewStatus status,
        List<Finding> findings,
        List<Review> reviews,
        Instant createdAt,
        Instant proposedAt,
        String proposedBy) {
}
