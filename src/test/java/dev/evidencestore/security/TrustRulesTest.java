package dev.evidencestore.security;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.evidencestore.support.Api.anonymous;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

/** Who did what comes from the token; four eyes see every acceptance; workspaces and blobs stay apart. */
@QuarkusTest
class TrustRulesTest {

    private static final String CAROL = Tokens.of("carol", "collector", "reviewer", "reader");
    private static final String DAVE = Tokens.of("dave", "investigator", "reader");
    private static final String BOB = Tokens.bob();

    private static String incident(String token, String workspace) {
        String key = Evidence.uniqueKey();
        as(token).contentType(ContentType.JSON).body(Map.of("key", key, "title", "t", "severity", "SEV-3"))
                .post("/api/v1/workspaces/{ws}/incidents", workspace).then().statusCode(201)
                .body("createdBy", equalTo(upn(token)));
        return key;
    }

    private static String upn(String token) {
        return token.equals(CAROL) ? "carol" : token.equals(DAVE) ? "dave" : token.equals(BOB) ? "bob" : "alice";
    }

    private static String artifact(String token, String workspace, String key, byte[] bytes) {
        String digest = as(token).contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then()
                .statusCode(201).extract().path("digest");
        return as(token).contentType(ContentType.JSON).body(Map.of("name", "panel", "digest", digest,
                        "mediaType", "application/json", "source", "grafana", "kind", "snapshot",
                        "capturedAt", "2026-06-18T09:00:00Z"))
                .post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", workspace, key).then().statusCode(201)
                .body("createdBy", equalTo(upn(token))).extract().path("id");
    }

    private static String finding(String token, String workspace, String key, String artifactId) {
        return as(token).contentType(ContentType.JSON).body(Map.of("name", "queue-rise", "kind", "supporting",
                        "statement", "Queue rose.", "artifactIds", List.of(artifactId)))
                .post("/api/v1/workspaces/{ws}/incidents/{key}/findings", workspace, key).then().statusCode(201)
                .body("createdBy", equalTo(upn(token))).extract().path("id");
    }

    private static void verify(String token, String artifactId) {
        as(token).contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", artifactId).then()
                .statusCode(201).body("verified", equalTo(true)).body("verifiedBy", equalTo(upn(token)));
    }

    private static Map<String, String> accept() {
        return Map.of("decision", "accepted", "note", "Checked.");
    }

    @Test
    void nobodyAcceptsWhatTheyProposed() {
        String key = incident(Tokens.alice(), "trust");
        String artifactId = artifact(Tokens.alice(), "trust", key, Evidence.uniqueBytes(40));
        String findingId = finding(Tokens.alice(), "trust", key, artifactId);
        verify(BOB, artifactId);
        problem(invalidAs(Tokens.alice()).contentType(ContentType.JSON).body(accept())
                .post("/api/v1/findings/{id}/reviews", findingId).then(), 409, "four-eyes")
                .body("reviewer", equalTo("alice"));
        as(BOB).contentType(ContentType.JSON).body(accept()).post("/api/v1/findings/{id}/reviews", findingId)
                .then().statusCode(201).body("reviews[0].reviewedBy", equalTo("bob"));
        as(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("statement", "Queue rose.", "confidence", "high",
                "findingIds", List.of(findingId))).put("/api/v1/workspaces/trust/incidents/{key}/root-cause", key)
                .then().statusCode(201).body("proposedBy", equalTo("alice"));
        problem(invalidAs(Tokens.alice()).contentType(ContentType.JSON).body(accept())
                .post("/api/v1/workspaces/trust/incidents/{key}/root-cause/reviews", key).then(), 409, "four-eyes");
        as(BOB).contentType(ContentType.JSON).body(accept())
                .post("/api/v1/workspaces/trust/incidents/{key}/root-cause/reviews", key).then().statusCode(201)
                .body("status", equalTo("accepted")).body("reviews[0].reviewedBy", equalTo("bob"));
    }

    @Test
    void evidenceUploadedAndVerifiedOnlyByTheReviewerIsNotEnough() {
        String key = incident(DAVE, "trust");
        String artifactId = artifact(CAROL, "trust", key, Evidence.uniqueBytes(40));
        String findingId = finding(DAVE, "trust", key, artifactId);
        verify(CAROL, artifactId);
        problem(invalidAs(CAROL).contentType(ContentType.JSON).body(accept())
                .post("/api/v1/findings/{id}/reviews", findingId).then(), 409, "four-eyes")
                .body("artifactIds", contains(artifactId));
        verify(BOB, artifactId);
        as(CAROL).contentType(ContentType.JSON).body(accept()).post("/api/v1/findings/{id}/reviews", findingId)
                .then().statusCode(201).body("status", equalTo("accepted"));
    }

    @Test
    void theBodyCannotClaimWhoDidIt() {
        problem(invalidAs(DAVE).contentType(ContentType.JSON).body(Map.of("key", Evidence.uniqueKey(), "title", "t",
                        "severity", "SEV-3", "createdBy", "mallory"))
                .post("/api/v1/workspaces/trust/incidents").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("createdBy"));
    }

    @Test
    void anotherWorkspacesArtifactsAreUnknownToCitations() {
        String key = incident(Tokens.alice(), "trust");
        String elsewhere = incident(Tokens.alice(), "trust-other");
        String foreign = artifact(Tokens.alice(), "trust-other", elsewhere, Evidence.uniqueBytes(40));
        problem(invalidAs(Tokens.alice()).contentType(ContentType.JSON).body(Map.of("name", "borrowed",
                        "kind", "supporting", "statement", "s", "artifactIds", List.of(foreign)))
                .post("/api/v1/workspaces/trust/incidents/{key}/findings", key).then(), 422, "invalid-citation")
                .body("citations[0].id", equalTo(foreign))
                .body("citations[0].reason", equalTo("unknown"));
    }

    @Test
    void blobsAreReadableThroughVisibleArtifactsOrByTheirUploader() {
        byte[] bytes = Evidence.uniqueBytes(80);
        String digest = as(CAROL).contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then()
                .statusCode(201).extract().path("digest");
        String stranger = Tokens.of("sam", Set.of("reader"), List.of("trust-other"));
        as(CAROL).get("/api/v1/blobs/{d}", digest).then().statusCode(200);
        problem(invalidAs(stranger).get("/api/v1/blobs/{d}", digest).then(), 404, "not-found");
        problem(invalidAs(null).get("/api/v1/blobs/{d}", digest).then(), 401, "unauthorized");
        String key = incident(Tokens.alice(), "public-demo");
        as(CAROL).contentType(ContentType.JSON).body(Map.of("name", "panel", "digest", digest,
                        "mediaType", "application/octet-stream", "source", "grafana", "kind", "snapshot",
                        "capturedAt", "2026-06-18T09:00:00Z"))
                .post("/api/v1/workspaces/public-demo/incidents/{key}/artifacts", key).then().statusCode(201);
        as(stranger).get("/api/v1/blobs/{d}", digest).then().statusCode(200);
        anonymous().get("/api/v1/blobs/{d}", digest).then().statusCode(200);
    }

    @Test
    void nobodyBindsABlobTheyCannotSee() {
        byte[] secret = Evidence.uniqueBytes(64);
        String digest = as(CAROL).contentType(ContentType.BINARY).body(secret).post("/api/v1/blobs").then()
                .statusCode(201).extract().path("digest");
        String mallory = Tokens.of("mallory", Set.of("collector", "investigator", "reader"), List.of("trust-other"));
        String key = incident(Tokens.alice(), "trust-other");
        problem(invalidAs(mallory).contentType(ContentType.JSON).body(Map.of("name", "stolen", "digest", digest,
                        "mediaType", "application/octet-stream", "source", "grafana", "kind", "snapshot",
                        "capturedAt", "2026-06-18T09:00:00Z"))
                .post("/api/v1/workspaces/trust-other/incidents/{key}/artifacts", key).then(), 422, "unknown-blob");
    }

    @Test
    void publicWorkspacesAreReadableWithoutATokenButNeverWritable() {
        String key = incident(Tokens.alice(), "public-demo");
        anonymous().get("/api/v1/workspaces/public-demo/incidents/{key}", key).then().statusCode(200)
                .body("key", equalTo(key));
        problem(invalidAs(null).contentType(ContentType.JSON).body(Map.of("status", "closed"))
                .patch("/api/v1/workspaces/public-demo/incidents/{key}", key).then(), 401, "unauthorized")
                .header("WWW-Authenticate", "Bearer");
        problem(invalidAs(Tokens.badSignature()).get("/api/v1/workspaces/public-demo/incidents/{key}", key).then(),
                401, "unauthorized");
    }
}
