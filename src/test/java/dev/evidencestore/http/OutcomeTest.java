package dev.evidencestore.http;

import jakarta.ws.rs.core.MediaType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OutcomeTest {

    private static final Map<String, Object> INTERRUPTED = Map.of("type",
            "https://evidence-store.dev/problems/upload-interrupted");
    private static final Map<String, Object> TAKEN = Map.of("type",
            "https://evidence-store.dev/problems/artifact-name-taken");

    @Test
    void keepsSuccessesAndRefusalsOfTheRequest() {
        for (int status : new int[] {200, 201, 400, 404, 409, 413, 415, 422}) {
            assertTrue(Outcome.isFinal(status, TAKEN), "status " + status);
        }
    }

    @Test
    void freesTheKeyWhenARetryMayBeAnsweredOtherwise() {
        for (int status : new int[] {401, 403, 408, 429, 500, 503, 507, 304}) {
            assertFalse(Outcome.isFinal(status, null), "status " + status);
        }
        assertFalse(Outcome.isFinal(400, INTERRUPTED));
    }

    @Test
    void storesOnlyJsonBodiesOrNone() {
        assertTrue(Outcome.isStorable(null, null));
        assertTrue(Outcome.isStorable(TAKEN, MediaType.valueOf("application/problem+json")));
        assertTrue(Outcome.isStorable(TAKEN, MediaType.valueOf("application/json;charset=UTF-8")));
        assertFalse(Outcome.isStorable("# Postmortem", MediaType.valueOf("text/markdown")));
        assertFalse(Outcome.isStorable(TAKEN, null));
    }
}
