package dev.evidencestore.domain;

import java.time.Instant;
import java.util.List;

/** A finding as the service reports it, with its pinned citations and every review it had. */
public record Finding(
        FindingId id,
        FindingKind kind,
        String statement,
        ReviewStatus status,
        List<Citation> citations,
        List<Review> reviews,
        Instant createdAt,
        Instant proposedAt,
        String createdBy) {
}
