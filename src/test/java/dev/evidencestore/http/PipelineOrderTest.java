package dev.evidencestore.http;

import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.is;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One request through every stage of {@link RequestPipeline}, watched by {@link PipelineProbe}: admission takes a
 * slot before anything else runs; the workspace gate runs before the idempotency claim; the audit filter writes its
 * entry after the resource answered and while the key is still held; the answer is stored for retries after that.
 */
@QuarkusTest
class PipelineOrderTest {

    private static final String INCIDENTS = "/api/v1/workspaces/pipeline/incidents";

    @Inject
    AdmissionControl admission;

    /** A request an earlier test class left behind (a client that went away mid-transfer) ends a moment later. */
    @BeforeEach
    void quiet() throws InterruptedException {
        for (int waited = 0; admission.inProgress() > 0 && waited < 500; waited++) {
            Thread.sleep(20);
        }
        assertTrue(admission.inProgress() == 0, "requests still in progress: downloads "
                + admission.inProgress(RequestKind.DOWNLOAD) + ", uploads " + admission.inProgress(RequestKind.UPLOAD)
                + ", other " + admission.inProgress(RequestKind.OTHER) + ": " + PipelineProbe.inFlight());
    }

    @Test
    void aWriteWithAnIdempotencyKeyPassesEveryStageInOrder() {
        String probe = UUID.randomUUID().toString();
        RestAssured.given().header("Authorization", "Bearer " + Tokens.alice()).header(PipelineProbe.HEADER, probe)
                .header("Idempotency-Key", "\"" + probe + "\"").contentType("application/json")
                .body("""
                        {"key": "INC-7001", "title": "Pipeline order", "severity": "SEV-3", "status": "investigating",
                         "impactStart": "2026-06-18T09:00:00Z"}""")
                .post(INCIDENTS).then().statusCode(201);

        assertEquals(List.of(
                "before admission: requests in progress 0",
                "after admission: requests in progress 1",
                "after authentication: auth failures routed by AuthFailureRouting true",
                "after short bodies: body read ahead true",
                "before workspace gate: key held false",
                "after workspace gate: key held false",
                "after idempotency claim: key held true",
                "before audit: status 201, key held true, audit entries 1",
                "after audit: status 201, key held true, audit entries 1",
                "after idempotency settle: status 201, key held false, audit entries 1"), PipelineProbe.seen(probe));
    }

    /** A short upload is read whole before JAX-RS, which reads it from memory, as a JSON body is (above). */
    @Test
    void aShortUploadIsReadAheadOnTheEventLoop() {
        String probe = UUID.randomUUID().toString();
        RestAssured.given().header("Authorization", "Bearer " + Tokens.alice()).header(PipelineProbe.HEADER, probe)
                .contentType("application/octet-stream").body(new byte[10 * 1024])
                .post("/api/v1/blobs").then().statusCode(anyOf(is(200), is(201)));

        assertTrue(PipelineProbe.seen(probe).contains("after short bodies: body read ahead true"),
                () -> "stages seen: " + PipelineProbe.seen(probe));
    }

    /** A workspace the token does not hold stops at the gate: no key is claimed, and the refusal is audited. */
    @Test
    void theGateRefusesBeforeAKeyIsClaimed() {
        String probe = UUID.randomUUID().toString();
        String elsewhere = "/api/v1/workspaces/not-held/incidents";
        RestAssured.given().header("Authorization", "Bearer " + Tokens.of("carol", Set.of("investigator", "reader"), List.of("elsewhere")))
                .header(PipelineProbe.HEADER, probe).header("Idempotency-Key", "\"" + probe + "\"")
                .contentType("application/json").body("{}")
                .post(elsewhere).then().statusCode(404);

        assertEquals(List.of(
                "before admission: requests in progress 0",
                "after admission: requests in progress 1",
                "after authentication: auth failures routed by AuthFailureRouting true",
                "after short bodies: body read ahead true",
                "before workspace gate: key held false",
                "before audit: status 404, key held false, audit entries 0",
                "after audit: status 404, key held false, audit entries 1",
                "after idempotency settle: status 404, key held false, audit entries 1"), PipelineProbe.seen(probe));
    }
}
