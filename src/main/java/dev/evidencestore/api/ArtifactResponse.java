package dev.evidencestore.api;

import com.fasterxml.jackson.annotation.JsonRawValue;
import dev.evidencestore.domain.Artifact;

import java.time.Instant;

public record ArtifactResponse(
        String id,
        String incident,
        String name,
        String digest,
        long size,
        String mediaType,
        String source,
        String kind,
        Instant capturedAt,
        Instant createdAt,
        String description,
        @JsonRawValue String capture,
        String createdBy) {

    static ArtifactResponse of(Artifact a) {
        return new ArtifactResponse(a.id().toString(), a.id().incident().value(), a.id().name().value(),
                a.digest().toString(), a.size(), a.mediaType(), a.source(), a.kind().wire(), a.capturedAt(),
                a.createdAt(), a.description(), a.capture(), a.createdBy());
    }
}
