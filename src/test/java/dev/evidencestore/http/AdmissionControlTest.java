package dev.evidencestore.http;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Probes;
import dev.evidencestore.support.RawHttp;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.PROBLEMS;
import static dev.evidencestore.support.Api.anonymous;
import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.incident;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every budget of admission refuses on its own, with 503 service-busy and Retry-After, while the others still
 * admit: downloads, uploads, other requests, one client address, one principal, the memory of request bodies. The
 * slots are taken the way requests in progress take them, so the tests do not race slow clients.
 */
@QuarkusTest
@TestProfile(AdmissionControlTest.SmallLimits.class)
class AdmissionControlTest {

    static final long MAX_JSON = 256 * 1024;
    static final long BODY_MEMORY = 2 * 1024 * 1024;
    /** The client address of the tests' requests, in both spellings a loopback connection may have. */
    static final List<String> LOOPBACK = List.of("127.0.0.1", "0:0:0:0:0:0:0:1");
    static final String INCIDENTS = "/api/v1/workspaces/{workspace}/incidents";
    private static final String CONTENT = "/api/v1/artifacts/{id}/content";

    public static class SmallLimits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            // the replaced setting still sets the bound of other requests
            return Map.of("evidence.http.max-concurrent-requests", "2",
                    "evidence.http.admission.downloads", "2",
                    "evidence.http.admission.uploads", "2",
                    "evidence.http.admission.per-client", "4",
                    "evidence.http.admission.per-principal", "3",
                    "evidence.http.admission.body-memory", String.valueOf(BODY_MEMORY),
                    "evidence.http.max-json-body", String.valueOf(MAX_JSON),
                    // long enough that no test's own requests meet it; EventLoopStall holds a loop longer
                    "evidence.http.admission.max-event-loop-lag", "1s");
        }
    }

    @Inject
    AdmissionControl admission;

    @Inject
    PrincipalCap principals;

    private String blob;

    /** A blob to download, and nothing left in progress by an earlier test. */
    @BeforeEach
    void blobAndQuiet() throws InterruptedException {
        awaitQuiet();
        byte[] bytes = Evidence.uniqueBytes(1000);
        blob = "/api/v1/blobs/" + Evidence.digestOf(bytes);
        api().contentType(ContentType.BINARY).body(bytes).put(blob).then().statusCode(201);
        awaitQuiet();
    }

    @AfterEach
    void quiet() throws InterruptedException {
        awaitQuiet();
    }

    /** The slots come back when a response has ended on the server, a moment after the client has it. */
    private void awaitQuiet() throws InterruptedException {
        for (int waited = 0; busy() && waited < 100; waited++) {
            Thread.sleep(20);
        }
        assertTrue(!busy(), "nothing in progress");
    }

    private boolean busy() {
        return admission.inProgress(RequestKind.OTHER) + admission.inProgress(RequestKind.DOWNLOAD)
                + admission.inProgress(RequestKind.UPLOAD) > 0 || admission.bodyMemoryTaken() > 0
                || LOOPBACK.stream().anyMatch(address -> admission.inProgress(address) > 0)
                || principals.inProgress(Tokens.ISSUER + " alice") > 0;
    }

    private static ValidatableResponse busy(ValidatableResponse response, String detail) {
        return problem(response, 503, "service-busy")
                .header("Retry-After", "1")
                .body("retryAfterSeconds", equalTo(1))
                .body("detail", equalTo(detail));
    }

    private void hold(RequestKind kind, int slots) {
        for (int i = 0; i < slots; i++) {
            assertTrue(admission.enter(kind), "a free " + kind + " slot");
        }
    }

    private void release(RequestKind kind, int slots) {
        for (int i = 0; i < slots; i++) {
            admission.leave(kind);
        }
    }

    private void writeReadAndHealthStillAnswer() {
        json(incident(Evidence.uniqueKey())).post(INCIDENTS, "demo").then().statusCode(201);
        api().get(INCIDENTS, "demo").then().statusCode(200);
        RestAssured.given().get("/q/health/live").then().statusCode(200);
        RestAssured.given().get("/q/health/ready").then().statusCode(200);
    }

    @Test
    void downloadsBeyondTheirSlotsAreRefusedWhileWritesReadsAndHealthGoOn() {
        hold(RequestKind.DOWNLOAD, 2);
        try {
            busy(invalid().get(blob).then(), "the service is streaming as many downloads as it can; nothing was done");
            writeReadAndHealthStillAnswer();
            byte[] other = Evidence.uniqueBytes(100);
            api().contentType(ContentType.BINARY).body(other).put("/api/v1/blobs/" + Evidence.digestOf(other)).then()
                    .statusCode(201);
        } finally {
            release(RequestKind.DOWNLOAD, 2);
        }
        api().get(blob).then().statusCode(200);
    }

    @Test
    void uploadsBeyondTheirSlotsAreRefusedWhileDownloadsAndWritesGoOn() {
        hold(RequestKind.UPLOAD, 2);
        try {
            byte[] bytes = Evidence.uniqueBytes(100);
            busy(invalid().contentType(ContentType.BINARY).body(bytes).put("/api/v1/blobs/" + Evidence.digestOf(bytes))
                    .then(), "the service is receiving as many uploads as it can; nothing was done");
            busy(invalid().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then(),
                    "the service is receiving as many uploads as it can; nothing was done");
            writeReadAndHealthStillAnswer();
            api().get(blob).then().statusCode(200);
        } finally {
            release(RequestKind.UPLOAD, 2);
        }
    }

    /** Turned away before its token is looked at: a refusal under load must cost next to nothing. */
    @Test
    void otherRequestsBeyondTheirSlotsAreRefusedWhileDownloadsAndHealthGoOn() {
        hold(RequestKind.OTHER, 2);
        try {
            String detail = "the service is handling as many requests as it can; nothing was done";
            busy(invalid().get(INCIDENTS, "demo").then(), detail);
            busy(RestAssured.given().header("Authorization", "Bearer not-a-token").get(INCIDENTS, "demo").then(),
                    detail);
            RestAssured.given().get("/q/health/live").then().statusCode(200);
            RestAssured.given().get("/q/health/ready").then().statusCode(200);
            api().get(blob).then().statusCode(200);
        } finally {
            release(RequestKind.OTHER, 2);
        }
        api().get(INCIDENTS, "demo").then().statusCode(200);
    }

    /**
     * A request that waited on an event loop held past the allowed lag is refused on it, before anything is done,
     * while health checks are answered on a loop held as long; once the loop has caught up, requests are served.
     */
    @Test
    void anEventLoopFarBehindRefusesNewRequestsButAnswersHealthChecks() {
        String detail = "the service is behind with the requests it has taken on; nothing was done";
        String stall = "1300";
        busy(invalid().header(EventLoopStall.HEADER, stall).get(INCIDENTS, "demo").then(), detail);
        String key = Evidence.uniqueKey();
        busy(invalid().contentType(ContentType.JSON).body(incident(key)).header(EventLoopStall.HEADER, stall)
                .post(INCIDENTS, "demo").then(), detail);
        RestAssured.given().header(EventLoopStall.HEADER, stall).get("/q/health/live").then().statusCode(200);

        api().get(INCIDENTS + "/{key}", "demo", key).then().statusCode(404);
        json(incident(key)).post(INCIDENTS, "demo").then().statusCode(201);
    }

    /** No trusted proxy is configured: a forwarded address is the client's own claim and changes nothing. */
    @Test
    void oneClientAddressBeyondItsCapIsRefusedWhateverItForwards() {
        LOOPBACK.forEach(address -> {
            for (int i = 0; i < 4; i++) {
                assertTrue(admission.enterClient(address));
            }
        });
        try {
            String detail = "this client address has 4 requests in progress already; nothing was done";
            busy(invalid().get(INCIDENTS, "demo").then(), detail);
            busy(invalid().get(blob).then(), detail);
            busy(invalid().header("X-Forwarded-For", "203.0.113.7").get(INCIDENTS, "demo").then(), detail);
            busy(invalid().header("Forwarded", "for=203.0.113.7").get(INCIDENTS, "demo").then(), detail);
            RestAssured.given().get("/q/health/live").then().statusCode(200);
        } finally {
            LOOPBACK.forEach(address -> {
                for (int i = 0; i < 4; i++) {
                    admission.leaveClient(address);
                }
            });
        }
        assertEquals(0, admission.inProgress(RequestKind.OTHER), "a refused request holds nothing");
    }

    /** After authentication: alice's token is at its cap, bob and anonymous public reads are not. */
    @Test
    void onePrincipalBeyondItsCapIsRefusedWhileOthersGoOn() {
        String heldArtifact = Fixtures.storedArtifact("demo", "held", Evidence.uniqueBytes(1000));
        api().get(CONTENT, heldArtifact).then().statusCode(200);
        String alice = Tokens.ISSUER + " alice";
        for (int i = 0; i < 3; i++) {
            assertTrue(principals.enter(alice));
        }
        try {
            String detail = "this principal has 3 requests in progress already; nothing was done";
            busy(invalid().get(INCIDENTS, "demo").then(), detail);
            busy(invalid().contentType(ContentType.JSON).body(incident(Evidence.uniqueKey())).post(INCIDENTS, "demo")
                    .then(), detail);
            // content held in memory is answered without JAX-RS, under the same cap
            busy(invalid().get(CONTENT, heldArtifact).then(), detail);
            as(Tokens.bob()).get(INCIDENTS, "demo").then().statusCode(200);
            anonymous().get(INCIDENTS, "public-demo").then().statusCode(200);
        } finally {
            for (int i = 0; i < 3; i++) {
                principals.leave(alice);
            }
        }
        api().get(INCIDENTS, "demo").then().statusCode(200);
        double held = Probes.metric("evidence_reads_held_total");
        api().get(CONTENT, heldArtifact).then().statusCode(200);
        assertEquals(held + 1, Probes.metric("evidence_reads_held_total"), "refused while held, served from memory after");
    }

    @Test
    void aJsonBodyDeclaredLargerThanTheLimitIs413BeforeItIsRead() {
        Map<String, Object> huge = Map.of("key", Evidence.uniqueKey(), "title", "x".repeat((int) MAX_JSON),
                "severity", "SEV-1");
        problem(invalid().contentType(ContentType.JSON).body(huge).post(INCIDENTS, "demo").then(), 413, "body-too-large")
                .header("Retry-After", (String) null)
                .body("maxSize", equalTo((int) MAX_JSON))
                .body("detail", equalTo("JSON bodies are limited to 262144 bytes; nothing was done"));
    }

    /**
     * A JSON body counts four times its declared length, five times with an Idempotency-Key: with 1,100,000 bytes
     * of the 2 MiB held, 200,000 bytes fit (800,000) but not with a key (1,000,000).
     */
    @Test
    void jsonBodiesBeyondTheMemoryLeftAreRefusedByTheirDeclaredLength() {
        List<String> factors = Collections.nCopies(10, "f".repeat(19_990));
        assertTrue(admission.takeBodyMemory(1_100_000));
        try {
            json(Map.of("key", Evidence.uniqueKey(), "title", "t", "severity", "SEV-1", "contributingFactors", factors))
                    .post(INCIDENTS, "demo").then().statusCode(201);
            busy(invalid().header("Idempotency-Key", "\"k-" + Evidence.uniqueKey() + "\"").contentType(ContentType.JSON)
                    .body(Map.of("key", Evidence.uniqueKey(), "title", "t", "severity", "SEV-1",
                            "contributingFactors", factors))
                    .post(INCIDENTS, "demo").then(),
                    "the request bodies in progress hold all the memory set aside for them; nothing was done");
            api().get(INCIDENTS, "demo").then().statusCode(200);
        } finally {
            admission.giveBodyMemory(1_100_000);
        }
    }

    /**
     * An upload counts what the blob store holds of it, no more than its declared length on this backend (a
     * PostgreSQL chunk at most), and the network's two chunks: one byte past what is left is refused, unread.
     */
    @Test
    void anUploadCountsTheStoresShareOfItsDeclaredLengthAndIsRefusedPastWhatIsLeft() {
        long network = BodyMemory.UPLOAD_NETWORK_BUFFERS;
        long fits = 100_000;
        assertTrue(admission.takeBodyMemory(BODY_MEMORY - network - fits));
        try {
            byte[] tooLarge = Evidence.uniqueBytes((int) fits + 1);
            String refused = "/api/v1/blobs/" + Evidence.digestOf(tooLarge);
            busy(api().contentType(ContentType.BINARY).body(tooLarge).put(refused).then(),
                    "the request bodies in progress hold all the memory set aside for them; nothing was done");
            byte[] fitting = Evidence.uniqueBytes((int) fits);
            api().contentType(ContentType.BINARY).body(fitting).put("/api/v1/blobs/" + Evidence.digestOf(fitting))
                    .then().statusCode(201);
            api().get(refused).then().statusCode(404);
        } finally {
            admission.giveBodyMemory(BODY_MEMORY - network - fits);
        }
    }

    /** Without a Content-Length a body counts as the largest JSON body, and is cut off as it grows past it. */
    @Test
    void aChunkedJsonBodyCountsAsTheLargestAndIsRefusedWhenItGrowsPastIt() {
        RawHttp http = new RawHttp(RestAssured.port);
        Map<String, byte[]> headers = new LinkedHashMap<>();
        headers.put("Authorization", ("Bearer " + Tokens.alice()).getBytes(StandardCharsets.US_ASCII));
        headers.put("Content-Type", "application/json".getBytes(StandardCharsets.US_ASCII));
        headers.put("Transfer-Encoding", "chunked".getBytes(StandardCharsets.US_ASCII));
        String target = "/api/v1/workspaces/demo/incidents";
        byte[] small = chunked("{\"key\":\"" + Evidence.uniqueKey() + "\",\"title\":\"t\",\"severity\":\"SEV-1\"}");
        assertTrue(admission.takeBodyMemory(BODY_MEMORY - 4 * MAX_JSON + 1));
        try {
            RawHttp.Response refused = http.send("POST", target, headers, small, -1L, false);
            assertEquals(503, refused.status(), refused.text());
            assertEquals("1", refused.header("Retry-After"));
            assertTrue(refused.text().contains(PROBLEMS + "service-busy"), refused.text());
        } finally {
            admission.giveBodyMemory(BODY_MEMORY - 4 * MAX_JSON + 1);
        }
        RawHttp.Response created = http.send("POST", target, headers, small, -1L, false);
        assertEquals(201, created.status(), created.text());
        String huge = "{\"key\":\"" + Evidence.uniqueKey() + "\",\"title\":\"t\",\"severity\":\"SEV-1\",\"summary\":\""
                + "s".repeat((int) MAX_JSON) + "\"}";
        RawHttp.Response tooLarge = http.send("POST", target, headers, chunked(huge), -1L, false);
        assertEquals(413, tooLarge.status(), tooLarge.text());
        assertEquals("application/problem+json", tooLarge.header("Content-Type"));
        assertTrue(tooLarge.text().contains("\"type\":\"" + PROBLEMS + "body-too-large\""), tooLarge.text());
        assertTrue(tooLarge.text().contains("\"maxSize\":262144"), tooLarge.text());
        // with a key, the fingerprint reads no further than the limit either
        headers.put("Idempotency-Key", ("\"k-" + Evidence.uniqueKey() + "\"").getBytes(StandardCharsets.US_ASCII));
        RawHttp.Response keyed = http.send("POST", target, headers, chunked(huge), -1L, false);
        assertEquals(413, keyed.status(), keyed.text());
        assertTrue(keyed.text().contains("\"type\":\"" + PROBLEMS + "body-too-large\""), keyed.text());
    }

    private static byte[] chunked(String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int at = 0; at < bytes.length; at += 8192) {
            int n = Math.min(8192, bytes.length - at);
            out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes, at, n);
            out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }
}
