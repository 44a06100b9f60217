package dev.evidencestore.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.web.WebFixtures.browser;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.oneOf;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The evidence on the artifact pages of the demo as loaded at startup: the Grafana panels drawn with the incident
 * over them, the deployment diff, the workers' state, the unavailable source; and what a page says of bytes that
 * are damaged, larger than a preview reads, or not what they were declared to be.
 */
@QuarkusTest
class EvidencePagesTest {

    private static final String WS = Profiles.DEMO_WORKSPACE;
    private static final String PAGE = "/artifacts/artifact:" + WS + ":v1:INC-1423:";
    private static final Path DEMO = Path.of("src/main/resources/demo/INC-1423");

    @Test
    void theGrafanaPageDrawsEveryPanelWithTheDeploymentMarkersAndTheImpactWindow() throws IOException {
        String page = page(PAGE + "grafana-checkout");
        assertEquals(4, count(page, "<figure class=\"chart\""));
        assertEquals(List.of("Checkout API p95 latency", "Checkout worker saturation", "Webhook retry rate",
                "Webhook queue depth"), all(page, "<figcaption><strong>([^<]+)</strong>"));
        // one path per series: two regions on the latency panel, one line on each of the others
        assertEquals(5, count(page, "<path class=\"series\""));
        assertEquals(4 * 3, count(page, "<line class=\"annotation\""), "deploy, rollback started and completed");
        assertEquals(4, count(page, "<rect class=\"impact\""));
        assertEquals(2, count(page, "<line class=\"threshold\""), "the latency and the queue-depth alerts");
        assertTrue(page.contains("<time datetime=\"2026-06-18T08:52:00Z\">2026-06-18 08:52:00 UTC</time> "
                + "deploy-2026-06-18.1 completed (tellagen/checkout-api 9c4be1f)"));

        List<String> citing = entries("grafana-checkout");
        assertEquals(citing.size(), count(page, "<ol class=\"markers entries\">") == 1
                ? count(between(page, "<ol class=\"markers entries\">", "</ol>"), "<li ") : 0);
        assertEquals(4 * citing.size(), count(page, "<g class=\"entry\">"), "every citing entry lies in the window");
        assertTrue(page.contains("href=\"/artifacts/artifact:" + WS + ":v1:INC-1423:grafana-checkout"
                + "?timeline=all#evidence\""));

        String all = page(PAGE + "grafana-checkout?timeline=all");
        int every = entries(null).size();
        assertEquals(every, count(between(all, "<ol class=\"markers entries\">", "</ol>"), "<li "));
        assertTrue(every > citing.size());
        assertTrue(all.contains("(outside the charts' window)"), "entries after 10:20 are listed, not drawn");
    }

    @Test
    void theGithubPageShowsTheDiffWithTheBatchSizeChangeAsAChangedLine() {
        String page = page(PAGE + "github-deployment");
        assertEquals(5, count(page, "<tr class=\"added\">"));
        assertEquals(1, count(page, "<tr class=\"removed\">"));
        assertTrue(page.contains("<tr class=\"removed\"><td class=\"ln\">7</td><td class=\"ln\"></td><td><code>"
                + "<span class=\"sign\">-</span>    batch_size: 50</code></td></tr>\n"
                + "<tr class=\"added\"><td class=\"ln\"></td><td class=\"ln\">7</td><td><code>"
                + "<span class=\"sign\">+</span>    batch_size: 500</code></td></tr>"), page);
        assertTrue(page.contains("<strong>Raise outbound order webhook batch size to 500</strong>"));
        assertTrue(page.contains("GitHub deployment deploy-2026-06-18.1"), "the header block above the diff");
        assertTrue(page.contains("2 files changed"));
        assertFalse(page.contains("do not bear out"), "the declared commit is the diff's");
    }

    @Test
    void theKubernetesPageShowsTheWorkersTheirPodsAndTheirSaturation() throws IOException {
        String page = page(PAGE + "kubernetes-workers");
        JsonNode state = new ObjectMapper().readTree(DEMO.resolve("kubernetes-workers.json").toFile());
        String pods = between(page, "<table class=\"pods reflow\">", "</table>");
        assertEquals(state.get("pods").size(), count(pods, "<tr><td data-label=\"Namespace/name\">"));
        assertTrue(page.contains("<td data-label=\"Kind\">Deployment</td><td data-label=\"Namespace/name\"><code>"
                + "checkout-api/checkout-workers</code></td><td data-label=\"Ready\">24/24</td>"));
        assertEquals(5, count(page, "<figure class=\"chart\""), "series grouped by unit");
        assertTrue(page.contains("<figcaption><strong>leaseSlotsInUse</strong>"));
        assertEquals(state.get("series").size(), count(page, "<path class=\"series\""));
        assertTrue(page.contains("<dt>Resource versions</dt><dd><code>88412093</code></dd>"));
    }

    @Test
    void theIntercomPageSaysWhyTheSourceWasUnavailable() {
        String page = page(PAGE + "intercom-readiness");
        String notice = between(page, "<div class=\"unavailable\" role=\"note\">", "</div>");
        assertTrue(notice.contains("<strong>intercom could not be reached.</strong> Checked 2026-06-18T09:24:00Z."));
        assertTrue(notice.contains("The Intercom connector is not configured for this workspace"));
        assertTrue(notice.contains("<dt>Attempted</dt><dd><code>intercom conversations.search</code></dd>"));
        assertTrue(notice.contains("<dt>Instead</dt><dd>Assessed from stored incident records."));
        assertFalse(page.contains("JSON, indented"), "the record is a notice, not JSON");
    }

    @Test
    void aDeclaredCaptureTheBytesDoNotBearOutIsFlagged() throws IOException {
        String key = incident();
        Map<String, Object> capture = Map.of("dashboard", "payments",
                "window", "2026-06-18T06:00:00Z/2026-06-18T10:20:00Z");
        String id = bind(key, "grafana-checkout", upload(Files.readAllBytes(DEMO.resolve("grafana-checkout.json"))),
                "application/json", "grafana", capture);
        String page = page("/artifacts/" + id);
        String alert = between(page, "<div class=\"alert\" role=\"note\">", "</div>");
        assertTrue(alert.contains("<li><code>dashboard</code> is declared as <code>payments</code>, but the snapshot "
                + "is of dashboard checkout-ops.</li>"), alert);
        assertTrue(alert.contains("<li><code>window</code> is declared as <code>2026-06-18T06:00:00Z/"
                + "2026-06-18T10:20:00Z</code>, but the data covers 2026-06-18T08:40:00Z/2026-06-18T10:20:00Z.</li>"));
    }

    @Test
    void bytesThatAreNotWhatTheyWereDeclaredAreShownAsTheyAreWithANote() {
        String key = incident();
        String id = bind(key, "not-a-snapshot", upload(Evidence.utf8("{\"hello\": \"<b>world</b>\"}")),
                "application/json", "grafana", null);
        String page = page("/artifacts/" + id);
        assertTrue(page.contains("but its bytes could not be read as such (a Grafana snapshot has a dashboard with "
                + "panels); they are shown as they are."));
        assertTrue(page.contains("<pre><code>{\n  &quot;hello&quot; : &quot;&lt;b&gt;world&lt;/b&gt;&quot;\n}</code>"));
    }

    @Test
    void aPreviewReadsAtMostItsLimitAndSaysSo() {
        String key = incident();
        StringBuilder text = new StringBuilder();
        for (int line = 1; text.length() < 3 * 1024 * 1024; line++) {
            text.append("log line ").append(line).append(" of a long capture\n");
        }
        String id = bind(key, "long-log", upload(Evidence.utf8(text.toString())), "text/plain", "shell", null);
        String page = page("/artifacts/" + id);
        assertTrue(page.contains("Showing the first 2.0 MiB (2,097,152 bytes) of 3.0 MiB"), "the extent is stated");
        assertTrue(page.contains("<tr><td class=\"ln\">1</td><td><code>log line 1 of a long capture</code></td></tr>"));
        assertFalse(page.contains("log line 80000 of"), "nothing past the first 2 MiB is shown");
    }

    @Test
    void bytesFoundDamagedAreNotShown() throws SQLException {
        String key = incident();
        String digest = upload(Evidence.utf8("{\"source\": \"intercom\", \"reason\": \"unreachable-now\", \"run\": \"" + key + "\"}"));
        String id = bind(key, "damaged-record", digest, "application/json", "intercom", null);
        assertTrue(page("/artifacts/" + id).contains("Stored bytes not checked yet"));
        Sql.update("INSERT INTO blob_integrity (digest, checked_at, damaged, computed_digest, damaged_since) "
                + "VALUES (?, now(), true, ?, now())", digest, Evidence.digestOf(Evidence.utf8("other")));
        try {
            String page = page("/artifacts/" + id);
            assertTrue(page.contains("<strong>Damaged, not shown.</strong>"));
            assertFalse(page.contains("unreachable-now"), "nothing of the bytes is shown");
            api().get("/api/v1/artifacts/{id}", id).then().statusCode(200).body("$", not(hasKey("derived")));
        } finally {
            Sql.update("DELETE FROM blob_integrity WHERE digest = ?", digest);
        }
    }

    @Test
    void theIncidentPageShowsTheChartsBesideTheChronologyEachLinkingToItsChart() {
        String page = page("/workspaces/" + WS + "/incidents/INC-1423");
        String evidence = between(page, "<section class=\"evidence-thumbnails\"", "</section>");
        assertTrue(page.indexOf("id=\"chronology\"") < page.indexOf("evidence-thumbnails"), "after the chronology");
        assertTrue(page.indexOf("evidence-thumbnails") < page.indexOf("id=\"detection-and-diagnosis\""));
        List<String> links = all(evidence, "<a class=\"thumbnail\" href=\"([^\"]+)\"");
        assertEquals(4 + 5, links.size(), "four Grafana panels, five Kubernetes series charts");
        assertEquals(links.size(), count(evidence, "<svg "));
        for (String link : links) {
            String[] target = link.split("#");
            assertTrue(page(target[0]).contains("<figure class=\"chart\" id=\"" + target[1] + "\">"), link);
        }
        assertTrue(links.contains(PAGE + "grafana-checkout#chart-4"));
    }

    @Test
    void everyCitedByLinkLandsOnItsEntryOfTheIncidentPage() {
        String artifact = page(PAGE + "grafana-checkout");
        String incident = page("/workspaces/" + WS + "/incidents/INC-1423");
        List<String> anchors = all(between(artifact, "<ul class=\"cited-by\">", "</ul>"),
                "href=\"/workspaces/" + WS + "/incidents/INC-1423#([^\"]+)\"");
        assertTrue(anchors.contains("root-cause:" + WS + ":v1:INC-1423"), anchors.toString());
        assertTrue(anchors.contains("timeline:" + WS + ":v1:INC-1423:1"), anchors.toString());
        for (String anchor : anchors) {
            assertEquals(1, count(incident, " id=\"" + anchor + "\""), anchor);
        }
        for (String finding : List.of("batch-size-change", "queue-after-deploy", "lease-saturation")) {
            assertEquals(1, count(incident, "<li id=\"finding:" + WS + ":v1:INC-1423:" + finding + "\">"), finding);
        }
        assertEquals(5, count(incident, "<tr id=\"action:" + WS + ":v1:INC-1423:"), "every action");
    }

    @Test
    void recordTextShowsItsInlineMarkdownTheWayThePostmortemDoes() {
        String key = incident();
        String id = bind(key, "described", upload(Evidence.utf8("{\"run\": \"" + key + "\"}")), "application/json",
                "shell", null, "The diff for `deploy-1`, *twice* checked, see [the runbook](https://example.com/rb) "
                        + "and [this](javascript:alert(1)) <b>bold</b>");
        String lead = between(page("/artifacts/" + id), "<p class=\"lead\">", "</p>");
        assertEquals("<p class=\"lead\">The diff for <code>deploy-1</code>, <em>twice</em> checked, see "
                + "<a rel=\"nofollow\" href=\"https://example.com/rb\">the runbook</a> and [this](javascript:alert(1)) "
                + "&lt;b&gt;bold&lt;/b&gt;", lead);
    }

    @Test
    void theArtifactsJsonCarriesTheFactsReadFromItsBytesDerivedOnceAndKept() throws SQLException {
        String id = "artifact:" + WS + ":v1:INC-1423:grafana-checkout";
        api().get("/api/v1/artifacts/{id}", id).then().statusCode(200)
                .body("derived.parser", equalTo("grafana/1"))
                .body("derived.readBytes", equalTo(17897))
                .body("derived.complete", equalTo(true))
                .body("derived.facts.dashboardUid", contains("checkout-ops"))
                .body("derived.facts.dataWindow", contains("2026-06-18T08:40:00Z/2026-06-18T10:20:00Z"))
                .body("derived.disagreements", hasSize(0))
                .body("derived.fallback", nullValue());
        String kept = "SELECT count(*) FROM derived_facts d JOIN artifact a ON a.id = d.artifact_id "
                + "JOIN incident i ON i.id = a.incident_id WHERE i.workspace = ? AND i.incident_key = 'INC-1423' "
                + "AND a.name = ? AND d.parser = ?";
        assertEquals(1, Sql.count(kept, WS, "grafana-checkout", "grafana/1"));
        api().get("/api/v1/artifacts/{id}", id).then().statusCode(200)
                .body("derived.facts.dashboardUid", contains("checkout-ops"));
        assertEquals(1, Sql.count(kept, WS, "grafana-checkout", "grafana/1"), "derived once");
        api().get("/api/v1/workspaces/{ws}/incidents/INC-1423/artifacts", WS).then().statusCode(200)
                .body("items.derived", everyItem(nullValue()));
        String manifest = api().get("/api/v1/workspaces/{ws}/incidents/INC-1423/evidence-manifest", WS)
                .then().statusCode(200).extract().asString();
        assertFalse(manifest.contains("derived") || manifest.contains("dashboardUid"), "not part of the manifest");
    }

    @Test
    void factsKeptByAnEarlierReadAreServedAndTheBytesNotReadAgain() throws IOException, SQLException {
        String key = incident();
        String id = bind(key, "grafana-checkout", upload(Files.readAllBytes(DEMO.resolve("grafana-checkout.json"))),
                "application/json", "grafana", null);
        Sql.update("INSERT INTO derived_facts (artifact_id, parser, facts, derived_at) SELECT a.id, 'grafana/1', "
                + "'{\"parser\": \"grafana/1\", \"readBytes\": 17897, \"complete\": true, "
                + "\"facts\": {\"dashboardUid\": [\"kept\"]}, \"disagreements\": [], \"fallback\": null}', now() "
                + "FROM artifact a JOIN incident i ON i.id = a.incident_id WHERE i.workspace = ? AND i.incident_key = ? "
                + "AND a.name = 'grafana-checkout'", WS, key);
        api().get("/api/v1/artifacts/{id}", id).then().statusCode(200)
                .body("derived.facts.dashboardUid", contains("kept"));
    }

    @Test
    void theDerivedFactsNameWhatTheBytesDoNotBearOut() throws IOException {
        String key = incident();
        String id = bind(key, "kubernetes-workers", upload(Files.readAllBytes(DEMO.resolve("kubernetes-workers.json"))),
                "application/json", "kubernetes", Map.of("namespace", "payments", "resourceVersion", "88412093"));
        api().get("/api/v1/artifacts/{id}", id).then().statusCode(200)
                .body("derived.parser", equalTo("kubernetes/1"))
                .body("derived.facts.resourceVersions", contains("88412093"))
                .body("derived.disagreements.capture", contains("namespace"))
                .body("derived.disagreements[0].found", equalTo("the state covers namespace checkout-api"));
    }

    private static String page(String path) {
        return browser().get(path).then().statusCode(200).contentType(startsWith("text/html")).extract().asString();
    }

    /** The events of the demo's timeline entries citing {@code artifact}, or of all of them. */
    private static List<String> entries(String artifact) throws IOException {
        JsonNode timeline = new ObjectMapper().readTree(DEMO.resolve("investigation.json").toFile()).get("timeline");
        List<String> events = new java.util.ArrayList<>();
        for (JsonNode entry : timeline) {
            boolean cites = false;
            for (JsonNode name : entry.get("artifacts")) {
                cites |= name.asText().equals(artifact);
            }
            if (artifact == null || cites) {
                events.add(entry.get("event").asText());
            }
        }
        return events;
    }

    private static String incident() {
        String key = Evidence.uniqueKey();
        json(Map.of("key", key, "title", "Previews", "severity", "SEV-3", "status", "investigating"))
                .post("/api/v1/workspaces/{ws}/incidents", WS).then().statusCode(201);
        return key;
    }

    /** Stores the bytes; the demo's own files are stored already, which is a 200 rather than a 201. */
    private static String upload(byte[] bytes) {
        return api().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs")
                .then().statusCode(oneOf(200, 201)).extract().path("digest");
    }

    private static String bind(String key, String name, String digest, String mediaType, String source,
                               Map<String, Object> capture) {
        return bind(key, name, digest, mediaType, source, capture, null);
    }

    private static String bind(String key, String name, String digest, String mediaType, String source,
                               Map<String, Object> capture, String description) {
        Map<String, Object> body = new HashMap<>();
        if (description != null) {
            body.put("description", description);
        }
        body.put("name", name);
        body.put("digest", digest);
        body.put("mediaType", mediaType);
        body.put("source", source);
        body.put("kind", "snapshot");
        body.put("capturedAt", "2026-06-18T10:20:00Z");
        if (capture != null) {
            body.put("capture", capture);
        }
        return json(body).post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", WS, key)
                .then().statusCode(201).extract().path("id");
    }

    private static String between(String text, String start, String end) {
        int from = text.indexOf(start);
        assertTrue(from >= 0, "no " + start);
        int to = text.indexOf(end, from + start.length());
        return text.substring(from, to < 0 ? text.length() : to);
    }

    private static List<String> all(String text, String regex) {
        Matcher matcher = Pattern.compile(regex).matcher(text);
        List<String> found = new java.util.ArrayList<>();
        while (matcher.find()) {
            found.add(matcher.group(1));
        }
        return found;
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
