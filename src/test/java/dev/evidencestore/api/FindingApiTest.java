package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.invalidReviewerJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static dev.evidencestore.support.Api.reviewerJson;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@QuarkusTest
class FindingApiTest {

    private static final String FINDINGS = "/api/v1/workspaces/{ws}/incidents/{key}/findings";
    private static final String FINDING = "/api/v1/findings/{id}";

    /** An incident with one snapshot and one source-unavailable record. */
    private record Case(String key, String snapshot, String snapshotDigest, String unavailable) {
    }

    private static Case newCase() {
        String key = Fixtures.newIncident("demo");
        byte[] bytes = Evidence.uniqueBytes(400);
        String digest = Fixtures.upload(bytes);
        String snapshot = json(Fixtures.artifact("grafana-checkout", digest))
                .post("/api/v1/workspaces/demo/incidents/{key}/artifacts", key).then().statusCode(201)
                .extract().path("id");
        Map<String, Object> gap = Fixtures.artifact("intercom-readiness",
                Fixtures.upload(Evidence.utf8("{\"reason\":\"not configured\",\"n\":\"" + key + "\"}")));
        gap.put("source", "intercom");
        gap.put("kind", "source-unavailable");
        String unavailable = json(gap).post("/api/v1/workspaces/demo/incidents/{key}/artifacts", key)
                .then().statusCode(201).extract().path("id");
        return new Case(key, snapshot, digest, unavailable);
    }

    private static Map<String, Object> finding(String name, String kind, String... artifactIds) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("kind", kind);
        body.put("statement", "Queue depth and retry rate rose right after the deployment.");
        body.put("artifactIds", List.of(artifactIds));
        return body;
    }

    private static void verify(String artifactId) {
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", artifactId)
                .then().statusCode(201).body("verified", equalTo(true));
    }

    private static Map<String, Object> review(String decision) {
        return Map.of("decision", decision, "note", "Checked the metric window against the deployment time.");
    }

    @Test
    void proposesAFindingThatPinsTheDigestsItCites() {
        Case c = newCase();
        String id = "finding:demo:v1:" + c.key() + ":queue-rise";
        Map<String, Object> created = json(finding("queue-rise", "supporting", c.snapshot())).post(FINDINGS, "demo", c.key())
                .then().statusCode(201)
                .header("Location", endsWith("/api/v1/findings/" + id))
                .body("id", equalTo(id))
                .body("incident", equalTo(c.key()))
                .body("name", equalTo("queue-rise"))
                .body("kind", equalTo("supporting"))
                .body("statement", equalTo("Queue depth and retry rate rose right after the deployment."))
                .body("status", equalTo("proposed"))
                .body("citations", hasSize(1))
                .body("citations[0].artifactId", equalTo(c.snapshot()))
                .body("citations[0].digest", equalTo(c.snapshotDigest()))
                .body("citations[0].latestVerification", nullValue())
                .body("reviews", hasSize(0))
                .body("createdAt", notNullValue())
                .extract().jsonPath().getMap("");
        assertEquals(created.get("createdAt"), created.get("proposedAt"));
        Map<String, Object> again = json(finding("queue-rise", "supporting", c.snapshot())).post(FINDINGS, "demo", c.key())
                .then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(created, again);
        assertEquals(created, api().get(FINDING, id).then().statusCode(200).extract().jsonPath().getMap(""));
        Map<String, Object> different = finding("queue-rise", "negative", c.snapshot());
        problem(invalidJson(different).post(FINDINGS, "demo", c.key()).then(), 409, "finding-name-taken")
                .body("findingId", equalTo(id));
    }

    @Test
    void aGapFindingCitesOnlySourceUnavailableRecords() {
        Case c = newCase();
        json(finding("intercom-gap", "gap", c.unavailable())).post(FINDINGS, "demo", c.key()).then().statusCode(201);
        problem(invalidJson(finding("bad-gap", "gap", c.unavailable(), c.snapshot())).post(FINDINGS, "demo", c.key())
                .then(), 422, "invalid-citation")
                .body("citations", hasSize(1))
                .body("citations[0].id", equalTo(c.snapshot()))
                .body("citations[0].reason", containsString("source-unavailable"));
        problem(invalid().get(FINDING, "finding:demo:v1:" + c.key() + ":bad-gap").then(), 404, "not-found");
    }

    @Test
    void refusesUnknownArtifactsAndArtifactsOfOtherIncidents() {
        Case c = newCase();
        Case other = newCase();
        String unknown = "artifact:demo:v1:" + c.key() + ":no-such-panel";
        problem(invalidJson(finding("mixed", "supporting", c.snapshot(), other.snapshot(), unknown))
                .post(FINDINGS, "demo", c.key()).then(), 422, "invalid-citation")
                .body("citations.id", contains(other.snapshot(), unknown))
                .body("citations.reason", contains("belongs to another incident", "unknown"))
                .body("detail", containsString(other.snapshot()));
        problem(invalidJson(finding("empty", "negative")).post(FINDINGS, "demo", c.key()).then(), 400,
                "invalid-request").body("errors[0].field", equalTo("artifactIds"));
        problem(invalidJson(finding("twice", "negative", c.snapshot(), c.snapshot())).post(FINDINGS, "demo", c.key())
                .then(), 400, "invalid-request").body("errors[0].field", equalTo("artifactIds[1]"));
        api().get(FINDINGS, "demo", c.key()).then().statusCode(200).body("items", hasSize(0));
    }

    /**
     * A body that gets thousands of items wrong is answered with the first 50 and the count: a bounded answer, which
     * idempotency stores and replays whole.
     */
    @Test
    void aBodyWithThousandsOfInvalidItemsGetsABoundedAnswer() {
        Case c = newCase();
        String[] ids = new String[5000];
        Arrays.fill(ids, "x");
        // one for more than 100 items, one for each repeat of "x", one for each "x" that is no artifact ID
        int expected = 1 + (ids.length - 1) + ids.length;
        problem(invalidJson(finding("flood", "supporting", ids)).post(FINDINGS, "demo", c.key()).then(), 400,
                "invalid-request")
                .body("detail", equalTo(expected + " fields are invalid"))
                .body("errorCount", equalTo(expected))
                .body("errors", hasSize(50))
                .body("errors[0].field", equalTo("artifactIds"))
                .body("errors[1].field", equalTo("artifactIds[0]"));
    }

    @Test
    void namesEveryInvalidField() {
        Case c = newCase();
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Queue Rise");
        body.put("kind", "speculative");
        body.put("statement", " ");
        body.put("artifactIds", List.of("grafana-checkout"));
        problem(invalidJson(body).post(FINDINGS, "demo", c.key()).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("name", "kind", "statement", "artifactIds[0]"));
        problem(invalidJson(Map.of()).post(FINDINGS, "demo", c.key()).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("name", "kind", "statement", "artifactIds"));
        problem(invalidJson(finding("x", "gap", c.unavailable())).post(FINDINGS, "demo", "NOPE-1").then(), 404,
                "not-found");
    }

    @Test
    void acceptingNeedsEveryCitedArtifactVerifiedAfterTheProposal() {
        Case c = newCase();
        verify(c.snapshot());
        String id = json(finding("queue-rise", "supporting", c.snapshot(), c.unavailable()))
                .post(FINDINGS, "demo", c.key()).then().statusCode(201).extract().path("id");
        problem(invalidReviewerJson(review("accepted")).post(FINDING + "/reviews", id).then(), 409, "unverified-evidence")
                .body("artifactIds", containsInAnyOrder(c.snapshot(), c.unavailable()));
        verify(c.snapshot());
        problem(invalidReviewerJson(review("accepted")).post(FINDING + "/reviews", id).then(), 409, "unverified-evidence")
                .body("artifactIds", contains(c.unavailable()));
        verify(c.unavailable());
        reviewerJson(review("accepted")).post(FINDING + "/reviews", id).then().statusCode(201)
                .header("Location", endsWith("/api/v1/findings/" + id))
                .body("status", equalTo("accepted"))
                .body("reviews", hasSize(1))
                .body("reviews[0].decision", equalTo("accepted"))
                .body("reviews[0].note", equalTo("Checked the metric window against the deployment time."))
                .body("citations[0].latestVerification.verified", equalTo(true));
    }

    @Test
    void aFailedLatestVerificationBlocksAcceptance() throws SQLException {
        Case c = newCase();
        String id = json(finding("queue-rise", "supporting", c.snapshot())).post(FINDINGS, "demo", c.key())
                .then().statusCode(201).extract().path("id");
        verify(c.snapshot());
        Sql.tamper("UPDATE blob_chunk SET data = set_byte(data, 0, (get_byte(data, 0) + 1) % 256) "
                + "WHERE content_id = (SELECT content_id FROM blob_content WHERE digest = ?)", c.snapshotDigest());
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", c.snapshot())
                .then().statusCode(201).body("verified", equalTo(false));
        problem(invalidReviewerJson(review("accepted")).post(FINDING + "/reviews", id).then(), 409, "unverified-evidence")
                .body("artifactIds", contains(c.snapshot()));
    }

    @Test
    void aDecidedFindingIsFrozen() throws SQLException {
        Case c = newCase();
        String id = json(finding("restarts", "negative", c.snapshot())).post(FINDINGS, "demo", c.key())
                .then().statusCode(201).extract().path("id");
        reviewerJson(Map.of("decision", "rejected", "note", "The restart window was not checked."))
                .post(FINDING + "/reviews", id).then().statusCode(201).body("status", equalTo("rejected"));
        problem(invalidJson(Map.of("statement", "Pods did not restart.")).contentType("application/merge-patch+json")
                .patch(FINDING, id).then(), 409, "finding-frozen").body("findingStatus", equalTo("rejected"));
        problem(invalidReviewerJson(review("accepted")).post(FINDING + "/reviews", id).then(), 409, "finding-frozen");
        api().get(FINDING, id).then().statusCode(200).body("status", equalTo("rejected"))
                .body("reviews", hasSize(1))
                .body("statement", equalTo("Queue depth and retry rate rose right after the deployment."));
        SQLException refused = assertThrows(SQLException.class, () -> Sql.update(
                "UPDATE finding SET statement = 'rewritten' WHERE name = 'restarts' AND incident_id = "
                        + "(SELECT id FROM incident WHERE incident_key = ?)", c.key()));
        assertThat(refused.getMessage(), containsString("frozen"));
        assertThrows(SQLException.class, () -> Sql.update("DELETE FROM finding_review"));
    }

    @Test
    void revisingAProposedFindingRepinsAndRequiresFreshVerification() {
        Case c = newCase();
        String id = json(finding("queue-rise", "supporting", c.snapshot())).post(FINDINGS, "demo", c.key())
                .then().statusCode(201).extract().path("id");
        verify(c.snapshot());
        verify(c.unavailable());
        Map<String, Object> patch = Map.of("statement", "Queue depth rose within two minutes of the deployment.",
                "artifactIds", List.of(c.unavailable(), c.snapshot()));
        json(patch).contentType("application/merge-patch+json").patch(FINDING, id).then().statusCode(200)
                .body("statement", equalTo("Queue depth rose within two minutes of the deployment."))
                .body("citations.artifactId", contains(c.unavailable(), c.snapshot()))
                .body("status", equalTo("proposed"));
        problem(invalidReviewerJson(review("accepted")).post(FINDING + "/reviews", id).then(), 409, "unverified-evidence");
        problem(invalidJson(Map.of("kind", "negative")).patch(FINDING, id).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("kind"));
        problem(invalidJson(Map.of("artifactIds", List.of())).patch(FINDING, id).then(), 400, "invalid-request");
    }

    @Test
    void listsFindingsByKindAndStatus() {
        Case c = newCase();
        json(finding("b-support", "supporting", c.snapshot())).post(FINDINGS, "demo", c.key()).then().statusCode(201);
        json(finding("a-negative", "negative", c.snapshot())).post(FINDINGS, "demo", c.key()).then().statusCode(201);
        String gap = json(finding("c-gap", "gap", c.unavailable())).post(FINDINGS, "demo", c.key()).then()
                .statusCode(201).extract().path("id");
        reviewerJson(Map.of("decision", "rejected", "note", "Not a gap after all.")).post(FINDING + "/reviews", gap)
                .then().statusCode(201);
        api().get(FINDINGS, "demo", c.key()).then().statusCode(200)
                .body("items.name", contains("a-negative", "b-support", "c-gap"));
        api().queryParam("kind", "supporting").get(FINDINGS, "demo", c.key()).then().statusCode(200)
                .body("items.name", contains("b-support"));
        api().queryParam("status", "rejected").get(FINDINGS, "demo", c.key()).then().statusCode(200)
                .body("items.name", contains("c-gap"));
        api().queryParam("status", "proposed").queryParam("kind", "gap").get(FINDINGS, "demo", c.key()).then()
                .statusCode(200).body("items", hasSize(0));
        problem(invalid().queryParam("kind", "speculative").get(FINDINGS, "demo", c.key()).then(), 400,
                "invalid-request").body("errors[0].field", equalTo("kind"));
    }

    @Test
    void refusesReviewsWithoutADecisionOrNote() {
        Case c = newCase();
        String id = json(finding("queue-rise", "supporting", c.snapshot())).post(FINDINGS, "demo", c.key())
                .then().statusCode(201).extract().path("id");
        problem(invalidReviewerJson(Map.of("decision", "maybe")).post(FINDING + "/reviews", id).then(), 400,
                "invalid-request").body("errors.field", containsInAnyOrder("decision", "note"));
        problem(invalidReviewerJson(review("accepted")).post(FINDING + "/reviews", "finding:demo:v1:NOPE-1:x").then(), 404,
                "not-found");
        problem(invalid().get(FINDING, "finding:demo:v1:" + c.key()).then(), 400, "invalid-request");
        problem(invalid().get(FINDING, "artifact:demo:v1:" + c.key() + ":queue-rise").then(), 400,
                "invalid-request");
    }
}
