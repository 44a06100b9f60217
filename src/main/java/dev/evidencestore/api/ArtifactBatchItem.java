package dev.evidencestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.evidencestore.domain.ArtifactDraft;

/** One item of a batch's {@code batch.json}: the tar entry holding its bytes, and the artifact to bind them to. */
public record ArtifactBatchItem(
        String path,
        String name,
        String digest,
        String mediaType,
        String source,
        String kind,
        String capturedAt,
        String description,
        JsonNode capture) {

    /** The same rules as one bind alone ({@link ArtifactRequest}); a refusal names the fields at fault. */
    ArtifactDraft toDraft() {
        return new ArtifactRequest(name, digest, mediaType, source, kind, capturedAt, description, capture).toDraft();
    }
}
