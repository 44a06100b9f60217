package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.invalidReviewerJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static dev.evidencestore.support.Api.reviewerJson;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

@QuarkusTest
class RootCauseApiTest {

    private static final String ROOT_CAUSE = "/api/v1/workspaces/{ws}/incidents/{key}/root-cause";

    /** An incident with one verified snapshot artifact. */
    private static String[] incidentWithArtifact() {
        String key = Fixtures.newIncident("demo");
        String digest = Fixtures.upload(Evidence.uniqueBytes(300));
        String artifact = json(Fixtures.artifact("github-deployment", digest))
                .post("/api/v1/workspaces/demo/incidents/{key}/artifacts", key).then().statusCode(201)
                .extract().path("id");
        return new String[] {key, artifact, digest};
    }

    private static String propose(String key, String name, String kind, String artifact) {
        return json(Map.of("name", name, "kind", kind, "statement", "Statement of " + name,
                "artifactIds", List.of(artifact)))
                .post("/api/v1/workspaces/demo/incidents/{key}/findings", key).then().statusCode(201)
                .extract().path("id");
    }

    private static void decide(String findingId, String decision) {
        reviewerJson(Map.of("decision", decision, "note", "Reviewed.")).post("/api/v1/findings/{id}/reviews", findingId)
                .then().statusCode(201).body("status", equalTo(decision));
    }

    private static void verify(String artifact) {
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", artifact)
                .then().statusCode(201);
    }

    private static Map<String, Object> rootCause(String statement, String... findingIds) {
        return Map.of("statement", statement, "confidence", "high", "findingIds", List.of(findingIds));
    }

    @Test
    void showsTheWholeChainAndAcceptsOnlyWhenSupported() {
        String[] c = incidentWithArtifact();
        String key = c[0];
        String supporting = propose(key, "batch-size", "supporting", c[1]);
        String negative = propose(key, "no-restarts", "negative", c[1]);
        verify(c[1]);
        String id = "root-cause:demo:v1:" + key;
        json(rootCause("Batch size went from 50 to 500.", supporting, negative)).put(ROOT_CAUSE, "demo", key)
                .then().statusCode(201)
                .header("Location", endsWith("/api/v1/workspaces/demo/incidents/" + key + "/root-cause"))
                .body("id", equalTo(id))
                .body("incident", equalTo(key))
                .body("statement", equalTo("Batch size went from 50 to 500."))
                .body("confidence", equalTo("high"))
                .body("status", equalTo("proposed"))
                .body("findings.id", contains(supporting, negative))
                .body("findings[0].citations[0].artifactId", equalTo(c[1]))
                .body("findings[0].citations[0].digest", equalTo(c[2]))
                .body("findings[0].citations[0].latestVerification.verified", equalTo(true))
                .body("findings[0].citations[0].latestVerification.computedDigest", equalTo(c[2]))
                .body("reviews", hasSize(0));

        problem(invalidReviewerJson(Map.of("decision", "accepted", "note", "Looks right.")).post(ROOT_CAUSE + "/reviews",
                "demo", key).then(), 409, "unsupported-root-cause")
                .body("findingIds", contains(supporting, negative))
                .body("reasons", hasItem("no accepted supporting finding is cited"));
        decide(supporting, "accepted");
        problem(invalidReviewerJson(Map.of("decision", "accepted", "note", "Looks right.")).post(ROOT_CAUSE + "/reviews",
                "demo", key).then(), 409, "unsupported-root-cause")
                .body("findingIds", contains(negative))
                .body("reasons", contains(negative + " is proposed, not accepted"));
        decide(negative, "accepted");
        reviewerJson(Map.of("decision", "accepted", "note", "Deployment diff, metric window and workload state agree."))
                .post(ROOT_CAUSE + "/reviews", "demo", key).then().statusCode(201)
                .body("status", equalTo("accepted"))
                .body("reviews[0].decision", equalTo("accepted"))
                .body("findings.status", contains("accepted", "accepted"));

        problem(invalidJson(rootCause("Something else.", supporting)).put(ROOT_CAUSE, "demo", key).then(), 409,
                "root-cause-frozen");
        problem(invalidReviewerJson(Map.of("decision", "rejected", "note", "Changed my mind.")).post(ROOT_CAUSE + "/reviews",
                "demo", key).then(), 409, "root-cause-frozen");
        json(rootCause("Batch size went from 50 to 500.", supporting, negative)).put(ROOT_CAUSE, "demo", key)
                .then().statusCode(200).body("status", equalTo("accepted"));
        api().get(ROOT_CAUSE, "demo", key).then().statusCode(200).body("status", equalTo("accepted"))
                .body("statement", equalTo("Batch size went from 50 to 500."));
    }

    @Test
    void aRejectedFindingCanNeverSupportAcceptance() {
        String[] c = incidentWithArtifact();
        String supporting = propose(c[0], "batch-size", "supporting", c[1]);
        String other = propose(c[0], "retries", "supporting", c[1]);
        verify(c[1]);
        decide(supporting, "accepted");
        decide(other, "rejected");
        json(rootCause("Batch size.", supporting, other)).put(ROOT_CAUSE, "demo", c[0]).then().statusCode(201);
        problem(invalidReviewerJson(Map.of("decision", "accepted", "note", "ok")).post(ROOT_CAUSE + "/reviews", "demo", c[0])
                .then(), 409, "unsupported-root-cause").body("reasons", contains(other + " is rejected, not accepted"));
    }

    @Test
    void aRejectedRootCauseIsRevisedWithPut() {
        String[] c = incidentWithArtifact();
        String supporting = propose(c[0], "batch-size", "supporting", c[1]);
        json(rootCause("First guess.", supporting)).put(ROOT_CAUSE, "demo", c[0]).then().statusCode(201);
        json(rootCause("First guess, reworded.", supporting)).put(ROOT_CAUSE, "demo", c[0]).then().statusCode(200)
                .body("statement", equalTo("First guess, reworded."));
        reviewerJson(Map.of("decision", "rejected", "note", "Does not explain the retries."))
                .post(ROOT_CAUSE + "/reviews", "demo", c[0]).then().statusCode(201).body("status", equalTo("rejected"));
        problem(invalidReviewerJson(Map.of("decision", "accepted", "note", "ok")).post(ROOT_CAUSE + "/reviews", "demo", c[0])
                .then(), 409, "root-cause-frozen");
        json(rootCause("Second guess.", supporting)).put(ROOT_CAUSE, "demo", c[0]).then().statusCode(200)
                .body("status", equalTo("proposed"))
                .body("reviews.decision", contains("rejected"));
    }

    @Test
    void citesOnlyFindingsOfTheSameIncident() {
        String[] c = incidentWithArtifact();
        String[] other = incidentWithArtifact();
        String foreign = propose(other[0], "elsewhere", "supporting", other[1]);
        String unknown = "finding:demo:v1:" + c[0] + ":no-such-finding";
        problem(invalidJson(rootCause("Guess.", foreign, unknown)).put(ROOT_CAUSE, "demo", c[0]).then(), 422,
                "invalid-citation")
                .body("citations.id", contains(foreign, unknown))
                .body("citations.reason", contains("belongs to another incident", "unknown"));
        problem(invalid().get(ROOT_CAUSE, "demo", c[0]).then(), 404, "not-found");
    }

    @Test
    void namesEveryInvalidField() {
        String key = Fixtures.newIncident("demo");
        problem(invalidJson(Map.of("confidence", "certain", "findingIds", List.of("finding:x")))
                .put(ROOT_CAUSE, "demo", key).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("statement", "confidence", "findingIds[0]"));
        problem(invalidJson(Map.of("statement", "s", "confidence", "low", "findingIds", List.of()))
                .put(ROOT_CAUSE, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("findingIds"));
        problem(invalidReviewerJson(Map.of("decision", "accepted", "note", "ok")).post(ROOT_CAUSE + "/reviews", "demo", key)
                .then(), 404, "not-found");
        problem(invalidJson(rootCause("s")).put(ROOT_CAUSE, "demo", "NOPE-1").then(), 400, "invalid-request");
    }
}
