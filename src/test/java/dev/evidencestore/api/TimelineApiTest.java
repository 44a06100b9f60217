package dev.evidencestore.api;

import dev.evidencestore.support.Concurrently;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@QuarkusTest
class TimelineApiTest {

    private static final String TIMELINE = "/api/v1/workspaces/{ws}/incidents/{key}/timeline";
    private static final String INCIDENT = "/api/v1/workspaces/{ws}/incidents/{key}";
    private static final String ARTIFACTS = "/api/v1/workspaces/{ws}/incidents/{key}/artifacts";

    private static String incidentStartingAt(String impactStart) {
        String key = Fixtures.newIncident("demo");
        json(Map.of("impactStart", impactStart)).contentType("application/merge-patch+json")
                .patch(INCIDENT, "demo", key).then().statusCode(200);
        return key;
    }

    private static Map<String, Object> entry(String at, String event, String... artifactIds) {
        Map<String, Object> body = new HashMap<>();
        body.put("at", at);
        body.put("event", event);
        if (artifactIds.length > 0) {
            body.put("artifactIds", List.of(artifactIds));
        }
        return body;
    }

    private static Map<String, Object> record(String key, Map<String, Object> entry) {
        return json(entry).post(TIMELINE, "demo", key).then().statusCode(201).extract().jsonPath().getMap("");
    }

    /** Binds fresh bytes as {@code name} in the incident; returns the artifact's ID. */
    private static String artifactIn(String key, String name) {
        String digest = Fixtures.upload(Evidence.uniqueBytes(64));
        return json(Fixtures.artifact(name, digest)).post(ARTIFACTS, "demo", key).then().statusCode(201)
                .extract().path("id");
    }

    private static String digestOf(String artifactId) {
        return api().get("/api/v1/artifacts/{id}", artifactId).then().statusCode(200).extract().path("digest");
    }

    @Test
    void recordsAnEntryNumberedWithinTheIncident() {
        String key = incidentStartingAt("2026-06-18T09:00:00Z");
        json(entry("2026-06-18T11:05:00+02:00", "Checkout p95 crosses 2 s; worker pool saturated"))
                .post(TIMELINE, "demo", key).then().statusCode(201)
                .header("Location", nullValue())
                .body("id", equalTo("timeline:demo:v1:" + key + ":1"))
                .body("at", equalTo("2026-06-18T09:05:00Z"))
                .body("elapsed", equalTo("+05m"))
                .body("event", equalTo("Checkout p95 crosses 2 s; worker pool saturated"))
                .body("citations", hasSize(0))
                .body("createdAt", notNullValue());
        Map<String, Object> second = record(key, entry("2026-06-18T08:00:00Z", "Deploy of webhook batch size 500"));
        assertEquals("timeline:demo:v1:" + key + ":2", second.get("id"));
        assertEquals("-60m", second.get("elapsed"));
    }

    @Test
    void listsByTimeWithElapsedMinutesFloored() {
        String key = incidentStartingAt("2026-06-18T09:00:00Z");
        record(key, entry("2026-06-18T11:08:59Z", "Batch size reverted; queue drains"));
        record(key, entry("2026-06-18T09:05:00Z", "Worker pool saturated"));
        record(key, entry("2026-06-18T09:00:59.999Z", "Customer-facing impact starts"));
        record(key, entry("2026-06-18T08:55:30Z", "Deploy of webhook batch size 500"));
        record(key, entry("2026-06-18T08:55:00Z", "Deploy starts"));
        String prefix = "timeline:demo:v1:" + key + ":";
        api().get(TIMELINE, "demo", key).then().statusCode(200)
                .body("items.id", contains(prefix + 5, prefix + 4, prefix + 3, prefix + 2, prefix + 1))
                .body("items.elapsed", contains("-05m", "-05m", "+00m", "+05m", "+128m"))
                .body("items.at", contains("2026-06-18T08:55:00Z", "2026-06-18T08:55:30Z",
                        "2026-06-18T09:00:59.999Z", "2026-06-18T09:05:00Z", "2026-06-18T11:08:59Z"));
    }

    @Test
    void entriesAtTheSameMomentKeepTheOrderTheyWereRecordedIn() {
        String key = incidentStartingAt("2026-06-18T09:00:00Z");
        record(key, entry("2026-06-18T09:10:00Z", "later"));
        record(key, entry("2026-06-18T09:05:00Z", "first at 09:05"));
        record(key, entry("2026-06-18T09:05:00Z", "second at 09:05"));
        api().get(TIMELINE, "demo", key).then().statusCode(200)
                .body("items.event", contains("first at 09:05", "second at 09:05", "later"))
                .body("items.id", contains("timeline:demo:v1:" + key + ":2", "timeline:demo:v1:" + key + ":3",
                        "timeline:demo:v1:" + key + ":1"));
    }

    @Test
    void elapsedIsNullWithoutImpactStartAndFollowsItsCorrections() {
        String key = Fixtures.newIncident("demo");
        record(key, entry("2026-06-18T09:05:00Z", "Worker pool saturated"));
        record(key, entry("2026-06-18T11:08:00Z", "Queue drains"));
        api().get(TIMELINE, "demo", key).then().statusCode(200)
                .body("items.elapsed", contains(nullValue(), nullValue()));

        json(Map.of("impactStart", "2026-06-18T09:00:00Z")).contentType("application/merge-patch+json")
                .patch(INCIDENT, "demo", key).then().statusCode(200);
        api().get(TIMELINE, "demo", key).then().statusCode(200).body("items.elapsed", contains("+05m", "+128m"));

        json(Map.of("impactStart", "2026-06-18T09:10:00+00:00")).contentType("application/merge-patch+json")
                .patch(INCIDENT, "demo", key).then().statusCode(200);
        api().get(TIMELINE, "demo", key).then().statusCode(200).body("items.elapsed", contains("-05m", "+118m"));

        Map<String, Object> cleared = new HashMap<>();
        cleared.put("impactStart", null);
        json(cleared).contentType("application/merge-patch+json").patch(INCIDENT, "demo", key).then().statusCode(200);
        api().get(TIMELINE, "demo", key).then().statusCode(200)
                .body("items.elapsed", contains(nullValue(), nullValue()));
    }

    @Test
    void citationsPinTheDigestsOfTheIncidentsArtifacts() throws SQLException {
        String key = incidentStartingAt("2026-06-18T09:00:00Z");
        String grafana = artifactIn(key, "grafana-checkout");
        String workers = artifactIn(key, "kubernetes-workers");
        Map<String, Object> recorded = record(key, entry("2026-06-18T09:05:00Z", "Worker pool saturated",
                workers, grafana));
        Map<String, Object> listed = api().get(TIMELINE, "demo", key).then().statusCode(200)
                .body("items", hasSize(1))
                .body("items[0].citations.artifactId", contains(workers, grafana))
                .body("items[0].citations.digest", contains(digestOf(workers), digestOf(grafana)))
                .extract().jsonPath().getMap("items[0]");
        assertEquals(recorded, listed);
        assertEquals(1, Sql.count("""
                        SELECT count(*) FROM timeline_citation c JOIN artifact a ON a.id = c.artifact_id
                        JOIN incident i ON i.id = a.incident_id
                        WHERE i.incident_key = ? AND a.name = 'grafana-checkout' AND c.digest = ?""",
                key, digestOf(grafana)));
    }

    @Test
    void refusesCitationsOfArtifactsOfOtherIncidentsOrOfNone() {
        String key = incidentStartingAt("2026-06-18T09:00:00Z");
        String own = artifactIn(key, "grafana-checkout");
        String foreign = Fixtures.storedArtifact("demo", "grafana-checkout", Evidence.uniqueBytes(32));
        String unknown = "artifact:demo:v1:" + key + ":intercom-readiness";
        problem(invalidJson(entry("2026-06-18T09:05:00Z", "Saturation", own, foreign, unknown))
                .post(TIMELINE, "demo", key).then(), 422, "invalid-citation")
                .body("citations.id", contains(foreign, unknown))
                .body("citations.reason", contains("belongs to another incident", "unknown"))
                .body("detail", containsString(foreign));
        problem(invalidJson(entry("2026-06-18T09:05:00Z", "Saturation", foreign))
                .post(TIMELINE, "demo", key).then(), 422, "invalid-citation");
        api().get(TIMELINE, "demo", key).then().statusCode(200).body("items", hasSize(0));
        record(key, entry("2026-06-18T09:05:00Z", "Saturation", own));
        api().get(TIMELINE, "demo", key).then().statusCode(200)
                .body("items.id", contains("timeline:demo:v1:" + key + ":1"));
    }

    @Test
    void namesEveryInvalidField() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> bad = new HashMap<>();
        bad.put("at", "2026-06-18T09:05:00");
        bad.put("event", " ");
        bad.put("artifactIds", Arrays.asList("artifact:demo:v1:" + key + ":panel", "grafana-checkout", null,
                "artifact:demo:v1:" + key + ":panel"));
        problem(invalidJson(bad).post(TIMELINE, "demo", key).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("at", "event", "artifactIds[1]", "artifactIds[2]",
                        "artifactIds[3]"));
        problem(invalidJson(Map.of()).post(TIMELINE, "demo", key).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("at", "event"));
        problem(invalidJson(entry("18 June 2026 09:05", "Saturation")).post(TIMELINE, "demo", key).then(), 400,
                "invalid-request").body("errors.field", contains("at"));
        problem(invalidJson(entry("2026-06-18T09:05:00Z", "x".repeat(20_001))).post(TIMELINE, "demo", key).then(),
                400, "invalid-request").body("errors.field", contains("event"));
        api().get(TIMELINE, "demo", key).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void refusesDuplicateCitations() {
        String key = Fixtures.newIncident("demo");
        String own = artifactIn(key, "grafana-checkout");
        problem(invalidJson(entry("2026-06-18T09:05:00Z", "Saturation", own, own)).post(TIMELINE, "demo", key)
                .then(), 400, "invalid-request")
                .body("errors.field", contains("artifactIds[1]"))
                .body("errors[0].message", containsString("artifactIds[0]"));
        api().get(TIMELINE, "demo", key).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void refusesUnknownFieldsWrongTypesAndMissingBodies() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> unknown = entry("2026-06-18T09:05:00Z", "Saturation");
        unknown.put("number", 7);
        problem(invalidJson(unknown).post(TIMELINE, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("number"));
        Map<String, Object> notAList = entry("2026-06-18T09:05:00Z", "Saturation");
        notAList.put("artifactIds", "artifact:demo:v1:" + key + ":panel");
        problem(invalidJson(notAList).post(TIMELINE, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("artifactIds"));
        Map<String, Object> wrongType = entry("2026-06-18T09:05:00Z", "Saturation");
        wrongType.put("event", 42);
        problem(invalidJson(wrongType).post(TIMELINE, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("event"));
        problem(invalid().contentType("application/json").post(TIMELINE, "demo", key).then(), 400,
                "invalid-request").body("errors[0].field", equalTo("body"));
        problem(invalid().contentType("text/plain").body("at=now").post(TIMELINE, "demo", key).then(), 415,
                "unsupported-media-type");
        api().get(TIMELINE, "demo", key).then().statusCode(200).body("items", hasSize(0));
    }

    @Test
    void answersNotFoundForUnknownIncidents() {
        String key = Fixtures.newIncident("demo");
        problem(invalidJson(entry("2026-06-18T09:05:00Z", "Saturation")).post(TIMELINE, "demo", "NOPE-404").then(),
                404, "not-found");
        problem(invalidJson(entry("2026-06-18T09:05:00Z", "Saturation")).post(TIMELINE, "elsewhere", key).then(),
                404, "not-found");
        problem(invalid().get(TIMELINE, "demo", "NOPE-404").then(), 404, "not-found");
        problem(invalid().get(TIMELINE, "demo", "nope").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("key"));
    }

    @Test
    void concurrentEntriesGetDistinctNumbers() throws Exception {
        String key = Fixtures.newIncident("demo");
        int writers = 8;
        List<Callable<String>> posts = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            Map<String, Object> body = entry("2026-06-18T09:05:00Z", "writer " + i);
            posts.add(() -> json(body).post(TIMELINE, "demo", key).then().statusCode(201).extract().path("id"));
        }
        List<String> ids = Concurrently.run(posts);
        List<String> expected = new ArrayList<>();
        for (int n = 1; n <= writers; n++) {
            expected.add("timeline:demo:v1:" + key + ":" + n);
        }
        assertThat(ids, containsInAnyOrder(expected.toArray()));
    }

    @Test
    void theDatabaseRefusesToChangeOrRemoveEntries() {
        String key = incidentStartingAt("2026-06-18T09:00:00Z");
        String grafana = artifactIn(key, "grafana-checkout");
        Map<String, Object> recorded = record(key, entry("2026-06-18T09:05:00Z", "Worker pool saturated", grafana));
        String ofThisIncident = "(SELECT id FROM incident WHERE workspace = 'demo' AND incident_key = '" + key + "')";
        String entriesOfThisIncident = "(SELECT id FROM timeline_entry WHERE incident_id = " + ofThisIncident + ")";
        List<String> statements = List.of(
                "UPDATE timeline_entry SET event = 'rewritten' WHERE incident_id = " + ofThisIncident,
                "UPDATE timeline_entry SET at = at - interval '1 hour' WHERE incident_id = " + ofThisIncident,
                "DELETE FROM timeline_entry WHERE incident_id = " + ofThisIncident,
                "UPDATE timeline_citation SET digest = digest WHERE entry_id IN " + entriesOfThisIncident,
                "DELETE FROM timeline_citation WHERE entry_id IN " + entriesOfThisIncident,
                "TRUNCATE timeline_entry CASCADE",
                "TRUNCATE timeline_citation");
        for (String statement : statements) {
            SQLException refused = assertThrows(SQLException.class, () -> Sql.update(statement), statement);
            assertThat(statement, refused.getMessage(), containsString("evidence is write-once"));
        }
        assertEquals(recorded, api().get(TIMELINE, "demo", key).then().statusCode(200)
                .extract().jsonPath().getMap("items[0]"));
    }
}
