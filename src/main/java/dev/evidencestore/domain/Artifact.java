package dev.evidencestore.domain;

import java.time.Instant;

/** A stored artifact: a name in an incident, bound for ever to one blob. {@code capture} is JSON text. */
public record Artifact(
        ArtifactId id,
        Digest digest,
        long size,
        String mediaType,
        String source,
        ArtifactKind kind,
        Instant capturedAt,
        Instant createdAt,
        String description,
        String capture,
        String createdBy) {
}
