package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The capture adapters against local fake sources shaped as Grafana's, GitHub's and Kubernetes' documented answers,
 * pushing to the real service; each artifact must be read by the service's recogniser of its kind (its derived
 * facts name the parser, with no fallback and no disagreement with the declared capture) and its page must render.
 */
class CaptureIT {

    private static final String WORKSPACE = "cli-capture";

    @TempDir
    static Path home;

    private static PackagedService service;
    private static ServiceApi reader;
    private static CliUser alice;
    private static String incident;

    @BeforeAll
    static void incident() {
        service = PackagedService.shared();
        reader = new ServiceApi(service, service.token("rita", "reader"));
        incident = new ServiceApi(service, service.token("alice", "investigator", "reader"))
                .createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        alice = CliUser.of(home.resolve("alice"), service, WORKSPACE, "alice", "collector", "reader");
    }

    @Test
    void grafanaRunsEachPanelsQueriesForTheWindowAndPushesASnapshotTheServiceReads() throws Exception {
        try (FakeSource grafana = new FakeSource()) {
            grafana.on("GET", "/api/dashboards/uid/checkout-ops", request -> FakeSource.Reply.json(resource(
                    "grafana-dashboard.json")));
            grafana.on("POST", "/api/ds/query", CaptureIT::dataFrames);
            Path token = Files.writeString(home.resolve("grafana.token"), "glsa_test\n");
            CliUser.Result result = alice.run("capture", "grafana", "--grafana", grafana.url().toString(),
                    "--grafana-token-file", token.toString(), "--dashboard", "checkout-ops",
                    "--from", "2026-06-18T08:40:00Z", "--to", "2026-06-18T10:20:00Z", "--max-data-points", "101",
                    "-i", incident);
            assertEquals(0, result.exit(), result.toString());
            String id = "artifact:" + WORKSPACE + ":v1:" + incident + ":grafana-checkout-ops";
            assertTrue(result.out().startsWith(id + " sha256:"), result.out());
            FakeSource.Request query = grafana.requests.get(1);
            assertEquals("Bearer glsa_test", query.header("Authorization"));
            JsonNode asked = Json.read(query.text());
            assertEquals("1781772000000", asked.path("from").asText());
            assertEquals("1781778000000", asked.path("to").asText());
            assertEquals(60000, asked.path("queries").get(0).path("intervalMs").asLong());
            JsonNode artifact = reader.get("/api/v1/artifacts/" + id);
            JsonNode capture = artifact.path("capture");
            assertEquals("checkout-ops", capture.path("dashboard").asText());
            assertEquals("[1,4]", capture.path("panels").toString());
            assertEquals("2026-06-18T08:40:00Z/2026-06-18T10:20:00Z", capture.path("window").asText());
            assertEquals("sum(webhook_queue_depth)", capture.path("queries").get(1).path("expr").asText());
            assertReadBy("grafana/1", artifact);
            assertPageShows(id, "<svg");
        }
    }

    @Test
    void githubCapturesTheDeploymentItsStatusesAndTheDiffFromThePreviousDeployment() throws Exception {
        String repo = "/repos/tellagen/checkout-api";
        String range = repo + "/compare/4e7d2a91c3b5f8e0a6d2c9b1f4e7a3d5c8b0e2f6...9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7";
        try (FakeSource github = new FakeSource()) {
            github.on("GET", repo + "/deployments/1842", request -> FakeSource.Reply.json(resource(
                    "github-deployment.json")));
            github.on("GET", repo + "/deployments/1842/statuses?per_page=100", request -> FakeSource.Reply.json(
                    resource("github-statuses.json")));
            github.on("GET", repo + "/deployments?environment=production&per_page=100", request -> FakeSource.Reply
                    .json(resource("github-deployments.json")));
            github.on("GET", range, request -> FakeSource.Reply.json(resource("github-compare.json")));
            github.on("GET", range, "application/vnd.github.diff", request -> FakeSource.Reply.text(
                    "application/vnd.github.diff", resource("github-compare.diff")));
            CliUser.Result result = alice.set("GITHUB_TOKEN", "ghp_test").run("capture", "github", "--api",
                    github.url().toString(), "--repo", "tellagen/checkout-api", "--deployment", "1842", "-i",
                    incident);
            assertEquals(0, result.exit(), result.toString());
            String id = "artifact:" + WORKSPACE + ":v1:" + incident + ":github-deployment-1842";
            assertEquals("Bearer ghp_test", github.requests.get(0).header("Authorization"));
            JsonNode artifact = reader.get("/api/v1/artifacts/" + id);
            assertEquals("text/x-diff", artifact.path("mediaType").asText());
            assertEquals("tellagen/checkout-api", artifact.path("capture").path("repository").asText());
            assertEquals("9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7", artifact.path("capture").path("commit").asText());
            assertEquals("release/2026.06.17.3...9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7",
                    artifact.path("capture").path("compare").asText());
            String text = new String(reader.getBytes("/api/v1/artifacts/" + id + "/content"), StandardCharsets.UTF_8);
            assertTrue(text.startsWith("""
                    GitHub deployment 1842
                    repository:   tellagen/checkout-api
                    environment:  production
                    ref:          release/2026.06.18.1
                    sha:          9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7
                    creator:      release-bot
                    previous:     release/2026.06.17.3 (4e7d2a91c3b5f8e0a6d2c9b1f4e7a3d5c8b0e2f6)
                    statuses:
                      2026-06-18T08:44:31Z  queued       \n\
                      2026-06-18T08:45:10Z  in_progress  rollout of checkout-workers started
                      2026-06-18T08:52:00Z  success      rollout of checkout-workers complete (24/24 updated)

                    Comparing release/2026.06.17.3...release/2026.06.18.1: 1 commit, 1 file changed, 1 insertion(+), \
                    1 deletion(-)

                    commit 9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7
                    Author: Kadri Lepp <kadri.lepp@tellagen.example>
                    Date:   Thu Jun 18 08:31:07 2026 +0000

                        Raise outbound order webhook batch size to 500

                        Fewer, larger deliveries per worker lease.

                    diff --git a/config/webhooks.yaml b/config/webhooks.yaml
                    """), text);
            assertReadBy("diff/1", artifact);
            assertPageShows(id, "webhooks.yaml");
        }
    }

    @Test
    void kubernetesRecordsTheCommandContextAndResourceVersion() throws Exception {
        Path kubectl = fakeKubectl();
        CliUser.Result result = alice.run("capture", "kubernetes", "-i", incident, "--", kubectl.toString(), "get",
                "deployment", "checkout-workers", "-n", "checkout-api", "-o", "json");
        assertEquals(0, result.exit(), result.toString());
        String id = "artifact:" + WORKSPACE + ":v1:" + incident + ":kubernetes-checkout-workers";
        JsonNode capture = reader.get("/api/v1/artifacts/" + id).path("capture");
        assertEquals(kubectl + " get deployment checkout-workers -n checkout-api -o json",
                capture.path("command").asText());
        assertEquals("prod-eu-west-1", capture.path("context").asText());
        assertEquals("checkout-api", capture.path("namespace").asText());
        assertEquals("88412093", capture.path("resourceVersion").asText());
        assertEquals("checkout-workers", capture.path("deployment").asText());
        assertEquals("{\"Deployment/checkout-workers\":\"88412093\"}", capture.path("resourceVersions").toString());
        assertReadBy("kubernetes/1", reader.get("/api/v1/artifacts/" + id));
        assertPageShows(id, "checkout-workers");
    }

    @Test
    void execRecordsTheCommandLineAndItsExitCode() {
        CliUser.Result result = alice.run("capture", "exec", "-i", incident, "--name", "psql-locks", "--", "sh", "-c",
                "echo 'relation | mode'; exit 3");
        assertEquals(0, result.exit(), result.toString());
        assertTrue(result.err().contains("evidence: sh exited with 3; its output is pushed"), result.err());
        JsonNode artifact = reader.get("/api/v1/artifacts/artifact:" + WORKSPACE + ":v1:" + incident + ":psql-locks");
        assertEquals("sh -c 'echo '\\''relation | mode'\\''; exit 3'", artifact.path("capture").path("command").asText());
        assertEquals(3, artifact.path("capture").path("exitCode").asInt());
        assertEquals("sh", artifact.path("source").asText());
        assertEquals("text/plain", artifact.path("mediaType").asText());
    }

    @Test
    void unavailableRecordsTheDemosShapeOfASourceThatCouldNotBeReached() {
        CliUser.Result result = alice.run("unavailable", "-i", incident, "--source", "intercom", "--name",
                "intercom-readiness", "--reason", "The Intercom connector is not configured.", "--result",
                "connector-not-configured", "--attempt", "operation=conversations.search", "--fallback",
                "Customer reports linked by responders were used.");
        assertEquals(0, result.exit(), result.toString());
        String id = "artifact:" + WORKSPACE + ":v1:" + incident + ":intercom-readiness";
        JsonNode artifact = reader.get("/api/v1/artifacts/" + id);
        assertEquals("source-unavailable", artifact.path("kind").asText());
        assertEquals("connector-not-configured", artifact.path("capture").path("result").asText());
        assertReadBy("source-unavailable/1", artifact);
        assertPageShows(id, "Intercom connector is not configured");
    }

    @Test
    void aSourceThatFailsIsExit4AndNothingIsPushed() throws Exception {
        try (FakeSource grafana = new FakeSource()) {
            CliUser.Result result = alice.run("capture", "grafana", "--grafana", grafana.url().toString(),
                    "--dashboard", "gone", "--from", "2026-06-18T08:40:00Z", "--to", "2026-06-18T10:20:00Z", "-i",
                    incident);
            assertEquals(4, result.exit(), result.toString());
            assertTrue(result.err().startsWith("evidence: grafana: GET " + grafana.url()
                    + "/api/dashboards/uid/gone answered 404"), result.err());
            assertEquals("", result.out());
        }
    }

    /** Read by the recogniser of its kind, with nothing declared that the bytes do not bear out. */
    private static void assertReadBy(String parser, JsonNode artifact) {
        JsonNode derived = artifact.path("derived");
        assertEquals(parser, derived.path("parser").asText(), derived.toString());
        assertTrue(derived.path("fallback").isNull(), derived.toString());
        assertEquals(0, derived.path("disagreements").size(), derived.toString());
    }

    private static void assertPageShows(String id, String fragment) {
        try {
            HttpResponse<String> page = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(service.url() + "/artifacts/" + id)).header("Accept", "text/html")
                    .header("Authorization", "Bearer " + service.token("rita", "reader")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, page.statusCode(), page.body());
            assertTrue(page.body().contains(fragment), page.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** /api/ds/query's answer: one frame per query, a sample a minute over the window asked for. */
    private static FakeSource.Reply dataFrames(FakeSource.Request request) {
        JsonNode asked = Json.read(request.text());
        long from = Long.parseLong(asked.path("from").asText());
        long to = Long.parseLong(asked.path("to").asText());
        ObjectNode results = Json.object();
        for (JsonNode query : asked.path("queries")) {
            String refId = query.path("refId").asText();
            ObjectNode frame = results.putObject("results").putObject(refId).put("status", 200).putArray("frames")
                    .addObject();
            ObjectNode schema = frame.putObject("schema").put("name", "eu-west").put("refId", refId);
            schema.putObject("meta").put("type", "timeseries-multi").put("executedQueryString",
                    query.path("expr").asText());
            ArrayNode fields = schema.putArray("fields");
            fields.addObject().put("name", "Time").put("type", "time").putObject("config").put("interval", 60000);
            fields.addObject().put("name", "Value").put("type", "number").putObject("labels").put("region", "eu-west");
            ArrayNode values = frame.putObject("data").putArray("values");
            ArrayNode times = values.addArray();
            ArrayNode numbers = values.addArray();
            for (long t = from; t <= to; t += 60_000) {
                times.add(t);
                numbers.add(0.2 + (t - from) / 3_600_000.0);
            }
        }
        return FakeSource.Reply.json(Json.write(results));
    }

    /** kubectl as far as the adapter uses it: its current context, and an object as `get -o json` prints it. */
    private static Path fakeKubectl() throws IOException {
        Path object = Files.writeString(home.resolve("deployment.json"), resource("kubernetes-deployment.json"));
        Path kubectl = home.resolve("kubectl");
        Files.writeString(kubectl, "#!/bin/sh\nif [ \"$1\" = config ]; then echo prod-eu-west-1; exit 0; fi\n"
                + "cat '" + object + "'\n");
        Files.setPosixFilePermissions(kubectl, PosixFilePermissions.fromString("rwx------"));
        return kubectl;
    }

    static String resource(String name) {
        try (InputStream in = CaptureIT.class.getResourceAsStream("/sources/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
