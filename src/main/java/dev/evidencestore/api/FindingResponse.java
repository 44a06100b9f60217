package dev.evidencestore.api;

import dev.evidencestore.domain.Finding;

import java.time.Instant;
import java.util.List;

public record FindingResponse(
        String id,
        String incident,
        String name,
        String kind,
        String statement,
        String status,
        List<CitationResponse> citations,
        List<ReviewResponse> reviews,
        Instant createdAt,
        Instant proposedAt,
        String createdBy) {

    static FindingResponse of(Finding f) {
        return new FindingResponse(f.id().toString(), f.id().incident().value(), f.id().name().value(),
                f.kind().wire(), f.statement(), f.status().wire(),
                f.citations().stream().map(CitationResponse::of).toList(),
                f.reviews().stream().map(ReviewResponse::of).toList(), f.createdAt(), f.proposedAt(),
                f.createdBy());
    }
}
