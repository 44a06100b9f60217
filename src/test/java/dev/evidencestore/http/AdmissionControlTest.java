package dev.evidencestore.http;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With every request slot taken, the next request is turned away at once; health still answers. */
@QuarkusTest
@TestProfile(AdmissionControlTest.OneRequestAtATime.class)
class AdmissionControlTest {

    public static class OneRequestAtATime implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.http.max-concurrent-requests", "1");
        }
    }

    @Inject
    AdmissionControl admission;

    /** The only slot is taken the way a request in progress takes it, so the test does not race a slow client. */
    @Test
    void aRequestBeyondTheBoundGets503WithRetryAfterAndHealthStillAnswers() throws InterruptedException {
        assertTrue(admission.enter(), "the slot was free");
        try {
            assertEquals(1, admission.inProgress());
            problem(invalid().get("/api/v1/workspaces/demo/incidents").then(), 503, "service-busy")
                    .header("Retry-After", "1")
                    .body("retryAfterSeconds", equalTo(1));
            problem(invalid().contentType("application/octet-stream").body(new byte[10]).post("/api/v1/blobs").then(),
                    503, "service-busy");
            // turned away before its token is looked at: a refusal under load must cost next to nothing
            problem(RestAssured.given().header("Authorization", "Bearer not-a-token")
                    .get("/api/v1/workspaces/demo/incidents").then(), 503, "service-busy");
            RestAssured.given().get("/q/health/live").then().statusCode(200);
            RestAssured.given().get("/q/health/ready").then().statusCode(200);
        } finally {
            admission.leave();
        }
        api().get("/api/v1/workspaces/demo/incidents").then().statusCode(200);
        // the slot comes back when the response has ended on the server, a moment after the client has it
        for (int waited = 0; admission.inProgress() > 0 && waited < 50; waited++) {
            Thread.sleep(20);
        }
        assertEquals(0, admission.inProgress(), "the admitted request gave its slot back when it ended");
    }
}
