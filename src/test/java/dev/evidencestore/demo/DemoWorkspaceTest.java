package dev.evidencestore.demo;

import dev.evidencestore.domain.Workspace;
import dev.evidencestore.support.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.anonymous;
import static dev.evidencestore.support.Api.api;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo workspace loaded at startup: INC-1423 as the seed postmortem tells it, read back through the API. It is
 * loaded into workspace {@code demo-loaded}, since {@code SeedInvestigationTest} builds {@code demo/INC-1423}
 * itself in the same test database.
 */
@QuarkusTest
class DemoWorkspaceTest {

    private static final String WS = Profiles.DEMO_WORKSPACE;
    private static final String INCIDENT = "/api/v1/workspaces/" + WS + "/incidents/INC-1423";
    private static final String ARTIFACT = "artifact:" + WS + ":v1:INC-1423:";
    private static final String FINDING = "finding:" + WS + ":v1:INC-1423:";
    /** The distinct records the demo postmortem cites (37 mentions of them). */
    private static final int DISTINCT_CITED = 9;
    /** The artifact files as they are kept in the repository. */
    private static final Path FILES = Path.of("src/main/resources/demo/INC-1423");
    private static final Map<String, String> ARTIFACT_FILES = new LinkedHashMap<>();

    static {
        ARTIFACT_FILES.put("github-deployment", "github-deployment.diff");
        ARTIFACT_FILES.put("grafana-checkout", "grafana-checkout.json");
        ARTIFACT_FILES.put("intercom-readiness", "intercom-readiness.json");
        ARTIFACT_FILES.put("kubernetes-workers", "kubernetes-workers.json");
    }

    @Inject
    DemoWorkspace demo;

    @Test
    void startupLoadsTheSeedInvestigationThroughTheServices() throws IOException {
        assertNull(demo.startupFailure(), () -> "loading at startup failed: " + demo.startupFailure());

        anonymous().get(INCIDENT).then().statusCode(200)
                .body("title", equalTo("Checkout latency and webhook delays"))
                .body("severity", equalTo("SEV-1"))
                .body("status", equalTo("resolved"))
                .body("services", contains("Checkout API"))
                .body("regions", contains("EU West", "US East"))
                .body("impactStart", equalTo("2026-06-18T09:00:00Z"))
                .body("impactEnd", equalTo("2026-06-18T10:24:00Z"))
                .body("commander", equalTo("Ivo Nuuskmõmmik"))
                .body("responders", contains("Andres Kask", "Edward Green"))
                .body("reviewOwner", equalTo("Timo Maasik"))
                .body("summary", startsWith("At 09:00 UTC on 2026-06-18, checkout latency increased"))
                .body("investigationQuestion", equalTo("Did the 08:52 UTC checkout deployment increase webhook "
                        + "batch size enough to saturate workers, amplify retries, and cause checkout latency?"))
                .body("impact", startsWith("From 09:00 UTC until customer recovery was confirmed at 10:24 UTC"))
                .body("contributingFactors", hasSize(6))
                .body("wentWell", hasSize(6))
                .body("madeHarder", hasSize(5))
                .body("detectionGap", startsWith("Tellagen had alerts for checkout latency"))
                .body("createdBy", equalTo("ivo"));

        JsonPath artifacts = api().get(INCIDENT + "/artifacts").then().statusCode(200)
                .body("items", hasSize(4))
                .body("items.name", contains(ARTIFACT_FILES.keySet().toArray()))
                .body("items.kind", contains("snapshot", "snapshot", "source-unavailable", "snapshot"))
                .body("items.createdBy", everyItem(equalTo("evidence-collector")))
                .extract().jsonPath();
        for (Map.Entry<String, String> artifact : ARTIFACT_FILES.entrySet()) {
            byte[] file = Files.readAllBytes(FILES.resolve(artifact.getValue()));
            String digest = "sha256:" + DigestUtils.sha256Hex(file);
            String item = "items.find { it.name == '" + artifact.getKey() + "' }.";
            assertEquals(digest, artifacts.getString(item + "digest"), artifact.getKey());
            assertEquals(file.length, artifacts.getLong(item + "size"), artifact.getKey());
            anonymous().get("/api/v1/artifacts/{id}/verifications", ARTIFACT + artifact.getKey()).then()
                    .statusCode(200)
                    .body("items", hasSize(1))
                    .body("items[0].verified", equalTo(true))
                    .body("items[0].verifiedBy", equalTo("timo"))
                    .body("items[0].claimedDigest", equalTo(digest))
                    .body("items[0].computedDigest", equalTo(digest));
        }

        api().get(INCIDENT + "/findings").then().statusCode(200)
                .body("items", hasSize(5))
                .body("items.name", containsInAnyOrder("batch-size-change", "queue-after-deploy", "lease-saturation",
                        "no-restarts", "intercom-unavailable"))
                .body("items.status", everyItem(equalTo("accepted")))
                .body("items.createdBy", everyItem(equalTo("ivo")))
                .body("items.reviews.flatten().reviewedBy", contains("timo", "timo", "timo", "timo", "timo"))
                .body("items.find { it.name == 'no-restarts' }.kind", equalTo("negative"))
                .body("items.find { it.name == 'intercom-unavailable' }.kind", equalTo("gap"))
                .body("items.find { it.name == 'lease-saturation' }.citations[0].artifactId",
                        equalTo(ARTIFACT + "kubernetes-workers"));

        api().get(INCIDENT + "/root-cause").then().statusCode(200)
                .body("status", equalTo("accepted"))
                .body("confidence", equalTo("high"))
                .body("statement", startsWith("The 08:52 UTC deployment increased outbound webhook batch size "
                        + "from 50 to 500"))
                .body("proposedBy", equalTo("ivo"))
                .body("reviews.reviewedBy", contains("timo"))
                .body("reviews[0].note", equalTo("Accepted after checking the deployment diff, metric window, "
                        + "workload state, and rollback recovery sequence."))
                .body("findings.id", contains(FINDING + "batch-size-change", FINDING + "queue-after-deploy",
                        FINDING + "lease-saturation", FINDING + "no-restarts", FINDING + "intercom-unavailable"))
                .body("findings.citations.flatten().latestVerification.verifiedBy", everyItem(equalTo("timo")));

        api().get(INCIDENT + "/timeline").then().statusCode(200)
                .body("items", hasSize(12))
                .body("items.elapsed", contains("+00m", "+05m", "+11m", "+18m", "+24m", "+31m", "+42m", "+58m",
                        "+72m", "+84m", "+91m", "+128m"))
                .body("items.createdBy", everyItem(equalTo("ivo")))
                .body("items[3].event", equalTo("GitHub deployment `deploy-2026-06-18.1` was correlated with the "
                        + "first sustained queue rise."))
                .body("items[3].citations.artifactId", contains(ARTIFACT + "github-deployment",
                        ARTIFACT + "grafana-checkout"))
                .body("items[1].citations", hasSize(0));

        api().get(INCIDENT + "/actions").then().statusCode(200)
                .body("items", hasSize(5))
                .body("items.owner", contains("Andres Kask", "Edward Green", "Ivo Nuuskmõmmik", "Timo Maasik",
                        "Andres Kask"))
                .body("items.due", contains("2026-06-18", "2026-06-26", "2026-06-27", "2026-07-02", "2026-07-05"))
                .body("items.status", contains("completed", "open", "in-progress", "open", "open"))
                .body("items.createdBy", everyItem(equalTo("ivo")));

        // every write is in the workspace's audit log, by the person who made it (blob uploads have no workspace)
        api().get("/api/v1/workspaces/{ws}/audit?limit=100", WS).then().statusCode(200)
                .body("items", hasSize(1 + 4 + 5 + 4 + 5 + 2 + 12 + 5 + 1))
                .body("items.actor", hasItem("evidence-collector"))
                .body("items.findAll { it.actor == 'timo' }.method", everyItem(equalTo("POST")))
                .body("items.findAll { it.actor == 'timo' }", hasSize(4 + 5 + 1))
                .body("items.status", everyItem(lessThan(300)))
                .body("items[0].path", equalTo("/api/v1/workspaces/" + WS + "/incidents"))
                .body("items[0].target", equalTo(INCIDENT));
    }

    @Test
    void loadsIntoAnotherWorkspaceFromInsideARequestContext() {
        // the test method runs with a request context of its own; each step's context is set aside and restored
        assertTrue(demo.load(Workspace.parse("demo-direct")));
        String incident = "/api/v1/workspaces/demo-direct/incidents/INC-1423";
        api().get(incident).then().statusCode(200).body("createdBy", equalTo("ivo"));
        api().get(incident + "/root-cause").then().statusCode(200)
                .body("status", equalTo("accepted"))
                .body("proposedBy", equalTo("ivo"))
                .body("reviews.reviewedBy", contains("timo"));
        api().get(incident + "/artifacts").then().statusCode(200)
                .body("items.createdBy", contains("evidence-collector", "evidence-collector", "evidence-collector",
                        "evidence-collector"));
        assertFalse(demo.load(Workspace.parse("demo-direct")));
    }

    @Test
    void loadingAgainChangesNothing() {
        assertNull(demo.startupFailure(), () -> "loading at startup failed: " + demo.startupFailure());
        List<String> before = snapshot();

        assertFalse(demo.load(), "the incident is there, so nothing is loaded");

        assertEquals(before, snapshot());
    }

    /** What a second load could change: the records' creation times, counts and the audit entries. */
    private static List<String> snapshot() {
        return List.of(
                api().get(INCIDENT).then().statusCode(200).extract().path("createdAt").toString(),
                api().get(INCIDENT).then().extract().path("updatedAt").toString(),
                api().get(INCIDENT + "/artifacts").then().statusCode(200).extract().path("items.createdAt").toString(),
                api().get(INCIDENT + "/findings").then().statusCode(200).extract().path("items.reviews").toString(),
                api().get(INCIDENT + "/root-cause").then().statusCode(200).extract().path("reviews").toString(),
                api().get(INCIDENT + "/timeline").then().statusCode(200).extract().path("items.id").toString(),
                api().get(INCIDENT + "/actions").then().statusCode(200).extract().path("items.id").toString(),
                api().get("/api/v1/artifacts/{id}/verifications", ARTIFACT + "grafana-checkout").then()
                        .statusCode(200).extract().path("items.verifiedAt").toString(),
                api().get("/api/v1/workspaces/{ws}/audit?limit=100", WS).then().statusCode(200)
                        .extract().path("items.seq").toString());
    }

    @Test
    void theDemoPostmortemChecksClean() {
        String markdown = api().accept("text/markdown").get(INCIDENT + "/postmortem").then().statusCode(200)
                .extract().asString();
        api().contentType("text/markdown; charset=UTF-8").body(markdown).post("/api/v1/citations/check").then()
                .statusCode(200)
                .body("ok", equalTo(true))
                .body("mentions", equalTo(37))
                .body("checked", equalTo(DISTINCT_CITED))
                .body("citations.status", everyItem(equalTo("ok")));
    }
}
