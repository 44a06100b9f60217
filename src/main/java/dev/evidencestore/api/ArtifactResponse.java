package dev.evidencestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
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
        String createdBy,
        @JsonInclude(JsonInclude.Include.NON_NULL) @JsonRawValue String derived) {

    /** An artifact as lists and binds answer it: without the facts derived from its bytes. */
    static ArtifactResponse of(Artifact a) {
        return of(a, null);
    }

    static ArtifactResponse of(Artifact a, String derived) {
        return new ArtifactResponse(a.id().toString(), a.id().incident().value(), a.id().name().value(),
                a.digest().toString(), a.size(), a.mediaType(), a.source(), a.kind().wire(), a.capturedAt(),
                a.createdAt(), a.description(), a.capture(), a.createdBy(), derived);
    }
}
