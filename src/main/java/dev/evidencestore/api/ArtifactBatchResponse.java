package dev.evidencestore.api;

import java.util.List;

/** The answer to a batch upload: one result per item of its batch.json, in that order, then any stray entries. */
public record ArtifactBatchResponse(List<ArtifactBatchResult> results) {
}
