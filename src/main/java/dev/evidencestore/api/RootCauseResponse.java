package dev.evidencestore.api;

import dev.evidencestore.domain.RootCause;

import java.time.Instant;
import java.util.List;

/** The root cause with its whole chain: findings, their pinned artifacts and latest verifications, reviews. */
public record RootCauseResponse(
        String id,
        String incident,
        String statement,
        String confidence,
        String status,
        List<FindingResponse> findings,
        List<ReviewResponse> reviews,
        Instant createdAt,
        Instant proposedAt,
        String proposedBy) {

    static RootCauseResponse of(RootCause r) {
        return new RootCauseResponse(r.id().toString(), r.id().incident().value(), r.statement(),
                r.confidence().wire(), r.status().wire(), r.findings().stream().map(FindingResponse::of).toList(),
                r.reviews().stream().map(ReviewResponse::of).toList(), r.createdAt(), r.proposedAt(),
                r.proposedBy());
    }
}
