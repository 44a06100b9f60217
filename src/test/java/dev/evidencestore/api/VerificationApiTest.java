package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
class VerificationApiTest {

    private static final String VERIFICATIONS = "/api/v1/artifacts/{id}/verifications";

    @Test
    void reReadsTheStoredBytesAndKeepsEveryVerification() {
        byte[] bytes = Evidence.uniqueBytes(5000);
        String digest = Evidence.digestOf(bytes);
        String id = Fixtures.storedArtifact("demo", "github-deployment", bytes);
        api().contentType(ContentType.JSON).post(VERIFICATIONS, id).then().statusCode(201)
                .body("artifactId", equalTo(id))
                .body("recordedDigest", equalTo(digest))
                .body("computedDigest", equalTo(digest))
                .body("claimedDigest", nullValue())
                .body("verified", equalTo(true))
                .body("verifiedAt", notNullValue());
        json(Map.of("digest", digest)).post(VERIFICATIONS, id).then().statusCode(201)
                .body("claimedDigest", equalTo(digest)).body("verified", equalTo(true));
        String otherDigest = Evidence.digestOf(Evidence.uniqueBytes(3));
        json(Map.of("digest", otherDigest)).post(VERIFICATIONS, id).then().statusCode(201)
                .body("computedDigest", equalTo(digest))
                .body("claimedDigest", equalTo(otherDigest))
                .body("verified", equalTo(false));
        api().get(VERIFICATIONS, id).then().statusCode(200)
                .body("items", hasSize(3))
                .body("items.verified", contains(true, true, false))
                .body("items.claimedDigest", contains(null, digest, otherDigest));
    }

    @Test
    void detectsBytesChangedBehindTheServicesBack() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(3000);
        String digest = Evidence.digestOf(bytes);
        String id = Fixtures.storedArtifact("demo", "grafana-checkout", bytes);
        int changed = Sql.tamper("UPDATE blob_chunk SET data = set_byte(data, 99, (get_byte(data, 99) + 1) % 256) "
                + "WHERE content_id = (SELECT content_id FROM blob_content WHERE digest = ?)", digest);
        org.junit.jupiter.api.Assertions.assertEquals(1, changed);
        api().contentType(ContentType.JSON).post(VERIFICATIONS, id).then().statusCode(201)
                .body("recordedDigest", equalTo(digest))
                .body("computedDigest", not(equalTo(digest)))
                .body("computedDigest", notNullValue())
                .body("verified", equalTo(false));
        api().get("/api/v1/artifacts/{id}", id).then().statusCode(200).body("digest", equalTo(digest));
    }

    @Test
    void reportsMissingBytesAsAFailedVerification() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(200);
        String digest = Evidence.digestOf(bytes);
        String id = Fixtures.storedArtifact("demo", "kubernetes-workers", bytes);
        Sql.tamper("DELETE FROM blob_chunk WHERE content_id = (SELECT content_id FROM blob_content WHERE digest = ?)",
                digest);
        api().contentType(ContentType.JSON).post(VERIFICATIONS, id).then().statusCode(201)
                .body("recordedDigest", equalTo(digest))
                .body("computedDigest", nullValue())
                .body("verified", equalTo(false));
    }

    @Test
    void refusesMalformedClaimsAndUnknownArtifacts() {
        String id = Fixtures.storedArtifact("demo", "panel", Evidence.uniqueBytes(10));
        problem(invalidJson(Map.of("digest", "sha256:ABC")).post(VERIFICATIONS, id).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("digest"));
        problem(invalidJson(Map.of("digest", 7)).post(VERIFICATIONS, id).then(), 400, "invalid-request");
        problem(invalidJson(Map.of("verified", true)).post(VERIFICATIONS, id).then(), 400, "invalid-request");
        api().get(VERIFICATIONS, id).then().statusCode(200).body("items", hasSize(0));
        problem(invalid().contentType(ContentType.JSON).post(VERIFICATIONS, "artifact:demo:v1:NOPE-1:x").then(), 404, "not-found");
        problem(invalid().get(VERIFICATIONS, "artifact:demo:v1:NOPE-1:x").then(), 404, "not-found");
        problem(invalid().contentType(ContentType.JSON).post(VERIFICATIONS, "not-an-id").then(), 400, "invalid-request");
    }
}
