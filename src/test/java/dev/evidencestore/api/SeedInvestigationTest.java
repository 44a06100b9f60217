package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.invalidReviewerJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static dev.evidencestore.support.Api.reviewerJson;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.oneOf;

/**
 * Re-creates the model investigation of the seed postmortem INC-1423 through the API alone, and checks every rule
 * of the investigation record on the way: the chain from root cause to findings to verified evidence.
 */
@QuarkusTest
class SeedInvestigationTest {

    private static final String WS = "demo";
    private static final String KEY = "INC-1423";
    private static final String INCIDENT = "/api/v1/workspaces/demo/incidents/INC-1423";
    private static final String ARTIFACT = "artifact:demo:v1:INC-1423:";
    private static final String FINDING = "finding:demo:v1:INC-1423:";

    private static byte[] seed(String file) throws IOException {
        try (InputStream in = SeedInvestigationTest.class.getResourceAsStream("/demo/INC-1423/" + file)) {
            return in.readAllBytes();
        }
    }

    @Test
    void theModelInvestigationHoldsTogether() throws IOException {
        createIncident();
        Map<String, String> digests = storeArtifacts();
        proposeFindings();
        refuseWhatTheChainForbids();
        verifyEvidence(digests);
        acceptFindingsAndRootCause();
        recordChronology();
        recordActions();
        recordNarrative();
        showWhatRestsOnEvidence(digests);
    }

    private void createIncident() {
        Map<String, Object> incident = new HashMap<>();
        incident.put("key", KEY);
        incident.put("title", "Checkout latency and webhook delays");
        incident.put("severity", "SEV-1");
        incident.put("status", "resolved");
        incident.put("services", List.of("Checkout API"));
        incident.put("regions", List.of("EU West", "US East"));
        incident.put("impactStart", "2026-06-18T09:00:00Z");
        incident.put("impactEnd", "2026-06-18T10:24:00Z");
        incident.put("commander", "Ivo Nuuskmõmmik");
        incident.put("responders", List.of("Andres Kask", "Edward Green"));
        incident.put("reviewOwner", "Timo Maasik");
        incident.put("summary", "A deployment changed the webhook batch size from 50 to 500; retries of whole "
                + "batches saturated the shared worker pool and raised checkout latency.");
        json(incident).post("/api/v1/workspaces/{ws}/incidents", WS).then().statusCode(201);
    }

    private Map<String, String> storeArtifacts() throws IOException {
        Map<String, String> digests = new LinkedHashMap<>();
        artifact(digests, "grafana-checkout", "grafana-checkout.json", "application/json", "grafana", "snapshot",
                "2026-06-18T10:20:00Z", Map.of("dashboard", "checkout-ops", "window", "08:40-10:20Z",
                        "collector", "evidence-cli 0.1.0"));
        artifact(digests, "kubernetes-workers", "kubernetes-workers.json", "application/json", "kubernetes",
                "snapshot", "2026-06-18T10:20:00Z", Map.of("namespace", "checkout-api", "resourceVersion", "88412093",
                        "collector", "evidence-cli 0.1.0"));
        artifact(digests, "github-deployment", "github-deployment.diff", "text/x-diff", "github", "snapshot",
                "2026-06-18T09:18:00Z", Map.of("deployment", "deploy-2026-06-18.1",
                        "commit", "9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7"));
        artifact(digests, "intercom-readiness", "intercom-readiness.json", "application/json", "intercom",
                "source-unavailable", "2026-06-18T09:24:00Z", Map.of("result", "connector-not-configured"));
        return digests;
    }

    private void artifact(Map<String, String> digests, String name, String file, String mediaType, String source,
                          String kind, String capturedAt, Map<String, Object> capture) throws IOException {
        byte[] bytes = seed(file);
        String digest = Evidence.digestOf(bytes);
        // 200 when another test (the demo load) stored the same repository file first: blobs are shared by digest
        api().contentType(ContentType.BINARY).body(bytes).put("/api/v1/blobs/{digest}", digest).then()
                .statusCode(oneOf(200, 201));
        json(Map.of("name", name, "digest", digest, "mediaType", mediaType, "source", source, "kind", kind,
                "capturedAt", capturedAt, "capture", capture))
                .post(INCIDENT + "/artifacts").then().statusCode(201).body("id", equalTo(ARTIFACT + name));
        digests.put(name, digest);
    }

    private static void finding(String name, String kind, String statement, String... artifacts) {
        json(Map.of("name", name, "kind", kind, "statement", statement,
                "artifactIds", List.of(artifacts).stream().map(a -> ARTIFACT + a).toList()))
                .post(INCIDENT + "/findings").then().statusCode(201).body("status", equalTo("proposed"));
    }

    private void proposeFindings() {
        finding("batch-size-change", "supporting",
                "The only relevant change in deploy-2026-06-18.1 raised the webhook batch size from 50 to 500.",
                "github-deployment");
        finding("queue-after-deploy", "supporting",
                "Queue depth and retry rate rose right after the deployment and fell after the rollback.",
                "grafana-checkout");
        finding("lease-saturation", "supporting",
                "Worker leases saturated during the same window without a restart or node-capacity event.",
                "kubernetes-workers");
        finding("no-restarts", "negative", "Pod restarts did not precede the latency increase.",
                "kubernetes-workers");
        finding("intercom-unavailable", "gap",
                "Intercom could not be checked; customer reports were assessed from the incident records.",
                "intercom-readiness");
    }

    private void refuseWhatTheChainForbids() {
        problem(invalidReviewerJson(Map.of("decision", "accepted", "note", "Looks right."))
                .post("/api/v1/findings/{id}/reviews", FINDING + "queue-after-deploy").then(), 409,
                "unverified-evidence").body("artifactIds", contains(ARTIFACT + "grafana-checkout"));
        problem(invalidJson(Map.of("name", "grafana-gap", "kind", "gap", "statement", "Grafana was down.",
                "artifactIds", List.of(ARTIFACT + "grafana-checkout"))).post(INCIDENT + "/findings").then(), 422,
                "invalid-citation").body("citations[0].id", equalTo(ARTIFACT + "grafana-checkout"));
        String other = Fixtures.storedArtifact(WS, "grafana-checkout", Evidence.uniqueBytes(100));
        problem(invalidJson(Map.of("name", "borrowed", "kind", "supporting", "statement", "Borrowed evidence.",
                "artifactIds", List.of(other))).post(INCIDENT + "/findings").then(), 422, "invalid-citation")
                .body("citations[0].id", equalTo(other))
                .body("citations[0].reason", equalTo("belongs to another incident"));
        json(Map.of("statement", "Premature.", "confidence", "high",
                "findingIds", List.of(FINDING + "batch-size-change"))).put(INCIDENT + "/root-cause").then()
                .statusCode(201);
        problem(invalidReviewerJson(Map.of("decision", "accepted", "note", "Premature.")).post(INCIDENT + "/root-cause/reviews")
                .then(), 409, "unsupported-root-cause").body("findingIds", contains(FINDING + "batch-size-change"));
    }

    private void verifyEvidence(Map<String, String> digests) {
        digests.forEach((name, digest) -> json(Map.of("digest", digest))
                .post("/api/v1/artifacts/{id}/verifications", ARTIFACT + name).then().statusCode(201)
                .body("verified", equalTo(true)).body("claimedDigest", equalTo(digest)));
    }

    private void acceptFindingsAndRootCause() {
        for (String name : List.of("batch-size-change", "queue-after-deploy", "lease-saturation", "no-restarts",
                "intercom-unavailable")) {
            reviewerJson(Map.of("decision", "accepted", "note", "Checked the cited evidence and its digest."))
                    .post("/api/v1/findings/{id}/reviews", FINDING + name).then().statusCode(201)
                    .body("status", equalTo("accepted"));
        }
        problem(invalidJson(Map.of("statement", "Rewritten after acceptance.")).contentType("application/merge-patch+json")
                .patch("/api/v1/findings/{id}", FINDING + "no-restarts").then(), 409, "finding-frozen");
        json(Map.of("statement", "The 08:52 UTC deployment increased the outbound webhook batch size from 50 to 500 "
                        + "without adjusting worker lease duration or concurrency; whole-batch retries amplified "
                        + "the queue and starved synchronous checkout work.",
                "confidence", "high",
                "findingIds", List.of(FINDING + "batch-size-change", FINDING + "queue-after-deploy",
                        FINDING + "lease-saturation", FINDING + "no-restarts", FINDING + "intercom-unavailable")))
                .put(INCIDENT + "/root-cause").then().statusCode(200).body("status", equalTo("proposed"));
        reviewerJson(Map.of("decision", "accepted", "note", "Checked the deployment diff, metric window, workload state and "
                + "rollback recovery sequence.")).post(INCIDENT + "/root-cause/reviews").then().statusCode(201)
                .body("status", equalTo("accepted"))
                .body("confidence", equalTo("high"))
                .body("findings", hasSize(5))
                .body("findings.kind", contains("supporting", "supporting", "supporting", "negative", "gap"))
                .body("findings.citations.flatten().latestVerification.verified",
                        contains(true, true, true, true, true));
    }

    private void recordChronology() {
        String[][] chronology = {
            {"09:00", "Grafana alert fired after Checkout API p95 exceeded 2 seconds and webhook queue depth crossed 40,000.", "grafana-checkout"},
            {"09:05", "Ivo Nuuskmõmmik declared INC-1423 as SEV-1 and took incident command.", null},
            {"09:11", "Scope was confirmed across EU West and US East. Customer impact moved from unknown to confirmed.", null},
            {"09:18", "GitHub deployment deploy-2026-06-18.1 was correlated with the first sustained queue rise.", "github-deployment"},
            {"09:24", "Fictional customer reports from Meridian Outfitters and Lantern Home were linked to delayed order confirmations.", "intercom-readiness"},
            {"09:31", "Responders approved rollback of the webhook batch-size change.", null},
            {"09:42", "Kubernetes worker saturation fell below 80 percent and queue growth stopped.", "kubernetes-workers"},
            {"09:58", "Checkout p95 stayed below 900 milliseconds for ten minutes.", "grafana-checkout"},
            {"10:12", "Webhook queue depth returned below 2,000 and retry volume normalized.", "grafana-checkout"},
            {"10:24", "All three fictional affected customers confirmed order confirmations had recovered.", null},
            {"10:31", "Incident resolved. Monitoring continued through 11:00 UTC.", null},
            {"11:08", "Incident record moved to review with evidence and actions preserved.", null},
        };
        for (int i = chronology.length - 1; i >= 0; i--) {
            String[] entry = chronology[i];
            Map<String, Object> body = new HashMap<>();
            body.put("at", "2026-06-18T" + entry[0] + ":00Z");
            body.put("event", entry[1]);
            if (entry[2] != null) {
                body.put("artifactIds", List.of(ARTIFACT + entry[2]));
            }
            json(body).post(INCIDENT + "/timeline").then().statusCode(201);
        }
        api().get(INCIDENT + "/timeline").then().statusCode(200)
                .body("items", hasSize(12))
                .body("items.elapsed", contains("+00m", "+05m", "+11m", "+18m", "+24m", "+31m", "+42m", "+58m",
                        "+72m", "+84m", "+91m", "+128m"))
                .body("items[3].citations[0].artifactId", equalTo(ARTIFACT + "github-deployment"));
    }

    private void recordActions() {
        String[][] actions = {
            {"Andres Kask", "2026-06-18", "completed", "Roll back deploy-2026-06-18.1 and restore webhook batch size to 50."},
            {"Edward Green", "2026-06-26", "open", "Change retries to requeue only failed webhook deliveries, with an idempotency regression test."},
            {"Ivo Nuuskmõmmik", "2026-06-27", "in-progress", "Add queue-growth and lease-headroom alerts for the shared checkout worker pool."},
            {"Timo Maasik", "2026-07-02", "open", "Raise staging webhook load to at least 35 percent of production peak and block batch-size changes without the capacity check."},
            {"Andres Kask", "2026-07-05", "open", "Separate synchronous checkout and outbound webhook concurrency budgets."},
        };
        for (String[] action : actions) {
            json(Map.of("owner", action[0], "due", action[1], "status", action[2], "action", action[3]))
                    .post(INCIDENT + "/actions").then().statusCode(201);
        }
        api().get(INCIDENT + "/actions").then().statusCode(200)
                .body("items", hasSize(5))
                .body("items.owner", contains("Andres Kask", "Edward Green", "Ivo Nuuskmõmmik", "Timo Maasik",
                        "Andres Kask"))
                .body("items.status", contains("completed", "open", "in-progress", "open", "open"))
                // due dates in 2026 before the day this runs: all but the completed one are overdue
                .body("items.overdue", contains(false, true, true, true, true));
    }

    private void recordNarrative() {
        Map<String, Object> narrative = Map.of(
                "investigationQuestion", "Did the 08:52 UTC checkout deployment increase webhook batch size enough "
                        + "to saturate workers, amplify retries, and cause checkout latency?",
                "impact", "Checkout API p95 latency peaked at 4.8 seconds in EU West and 4.2 seconds in US East.",
                "contributingFactors", List.of("Staging load tests used less than 10 percent of production peak "
                        + "webhook volume.", "Retry behavior requeued whole batches instead of only failed deliveries."),
                "wentWell", List.of("The incident was declared five minutes after the first alert."),
                "madeHarder", List.of("The unavailable support connector prevented a complete automated "
                        + "customer-report search."),
                "detectionGap", "No alert measured queue growth rate against available worker lease headroom.");
        json(narrative).contentType("application/merge-patch+json").patch(INCIDENT).then().statusCode(200)
                .body("investigationQuestion", equalTo(narrative.get("investigationQuestion")))
                .body("contributingFactors", hasSize(2))
                .body("wentWell", hasSize(1))
                .body("madeHarder", hasSize(1))
                .body("title", equalTo("Checkout latency and webhook delays"));
    }

    private void showWhatRestsOnEvidence(Map<String, String> digests) {
        String grafana = digests.get("grafana-checkout");
        api().get("/api/v1/artifacts/{id}/citations", ARTIFACT + "grafana-checkout").then().statusCode(200)
                .body("artifactId", equalTo(ARTIFACT + "grafana-checkout"))
                .body("items.kind", containsInAnyOrder("finding", "root-cause", "timeline-entry", "timeline-entry",
                        "timeline-entry"))
                .body("items.find { it.kind == 'finding' }.id", equalTo(FINDING + "queue-after-deploy"))
                .body("items.find { it.kind == 'root-cause' }.via", equalTo(FINDING + "queue-after-deploy"))
                .body("items.find { it.kind == 'root-cause' }.status", equalTo("accepted"))
                .body("items.digest", contains(grafana, grafana, grafana, grafana, grafana));
    }
}
