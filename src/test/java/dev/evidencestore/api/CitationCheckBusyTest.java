package dev.evidencestore.api;

import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.problem;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * When {@code evidence.citations.max-concurrent-checks} checks are running, one more is refused at once with 503
 * service-busy and Retry-After; here none may run, so every check is that one more.
 */
@QuarkusTest
@TestProfile(Profiles.PublicUrlAndSingleSlots.class)
class CitationCheckBusyTest {

    @Test
    void aCheckBeyondThoseRunningIsTurnedAwayWithRetryAfter() {
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("type", "https://evidence-store.dev/problems/service-busy");
        expected.put("title", "The service is at capacity; retry after the given delay");
        expected.put("status", 503);
        expected.put("detail", "the service is checking as many texts as it checks at once; retry shortly");
        expected.put("retryAfterSeconds", 1);
        Map<String, Object> body = problem(as(Tokens.alice()).contentType("text/markdown")
                .body("See artifact:demo:v1:INC-1423:grafana-checkout").post("/api/v1/citations/check").then(),
                503, "service-busy").header("Retry-After", "1").extract().jsonPath().getMap("");
        assertEquals(expected, body);
    }
}
