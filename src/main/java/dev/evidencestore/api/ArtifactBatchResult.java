package dev.evidencestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.http.Problems;

import java.util.Map;

/**
 * What became of one item of a batch, with the status it would have had alone: 201 bound, 200 already bound to the
 * same bytes, or a refusal (400, 409, 413, 422) with its problem document.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ArtifactBatchResult(String path, String id, String digest, int status, Map<String, Object> problem) {

    static ArtifactBatchResult refused(String path, Refusal refusal) {
        return new ArtifactBatchResult(path, null, null, refusal.type().status(), Problems.document(refusal));
    }
}
