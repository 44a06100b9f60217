package dev.evidencestore.domain;

import java.time.Instant;

/** What a collector asks to bind: a name in an incident and the blob it stands for, with how it was captured. */
public record ArtifactDraft(
        RecordName name,
        Digest digest,
        String mediaType,
        String source,
        ArtifactKind kind,
        Instant capturedAt,
        String description,
        String capture) {
}
