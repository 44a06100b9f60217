package dev.evidencestore.api;

import dev.evidencestore.support.Concurrently;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidJson;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
class ArtifactApiTest {

    private static final String ARTIFACTS = "/api/v1/workspaces/{ws}/incidents/{key}/artifacts";
    private static final String ARTIFACT = "/api/v1/artifacts/{id}";

    @Test
    void bindsANameToABlobWriteOnce() {
        String key = Fixtures.newIncident("demo");
        byte[] bytes = Evidence.utf8("{\"panel\":\"checkout p95\",\"peak\":4.8,\"run\":" + System.nanoTime() + "}");
        String digest = Fixtures.upload(bytes);
        String id = "artifact:demo:v1:" + key + ":grafana-checkout";
        Map<String, Object> created = json(Fixtures.artifact("grafana-checkout", digest)).post(ARTIFACTS, "demo", key)
                .then().statusCode(201)
                .header("Location", endsWith("/api/v1/artifacts/" + id))
                .body("id", equalTo(id))
                .body("incident", equalTo(key))
                .body("name", equalTo("grafana-checkout"))
                .body("digest", equalTo(digest))
                .body("size", equalTo(bytes.length))
                .body("mediaType", equalTo("application/json"))
                .body("source", equalTo("grafana"))
                .body("kind", equalTo("snapshot"))
                .body("capturedAt", equalTo("2026-06-18T10:20:00Z"))
                .body("description", equalTo("Checkout p95, worker saturation, retry rate and queue depth, 08:40-10:20 UTC"))
                .body("capture.query", equalTo("histogram_quantile(0.95, checkout_latency)"))
                .body("capture.collector", equalTo("es-cli 0.1"))
                .extract().jsonPath().getMap("");

        Map<String, Object> retry = new HashMap<>(Fixtures.artifact("grafana-checkout", digest));
        retry.put("description", "a retry with other words keeps the stored artifact");
        Map<String, Object> again = json(retry).post(ARTIFACTS, "demo", key).then().statusCode(200)
                .header("Location", endsWith("/api/v1/artifacts/" + id)).extract().jsonPath().getMap("");
        assertEquals(created, again);
        Map<String, Object> read = new HashMap<>(api().get(ARTIFACT, id).then().statusCode(200)
                .extract().jsonPath().getMap(""));
        // a read adds what the bytes say: these are not a Grafana snapshot, and are read as generic JSON
        assertEquals(Map.of("parser", "grafana/1", "readBytes", bytes.length, "complete", true, "facts", Map.of(),
                "disagreements", List.of(), "fallback", "a Grafana snapshot has a dashboard with panels"),
                read.remove("derived"));
        assertEquals(created, read);
    }

    @Test
    void aNameReadBeforeItsBindingIsServedOnceBound() {
        String key = Fixtures.newIncident("demo");
        String id = "artifact:demo:v1:" + key + ":late-snapshot";
        problem(api().get(ARTIFACT + "/content", id).then(), 404, "not-found");
        problem(api().get(ARTIFACT, id).then(), 404, "not-found");
        byte[] bytes = Evidence.uniqueBytes(64);
        String digest = Fixtures.upload(bytes);
        json(Fixtures.artifact("late-snapshot", digest)).post(ARTIFACTS, "demo", key).then().statusCode(201);

        api().get(ARTIFACT, id).then().statusCode(200).body("digest", equalTo(digest));
        assertArrayEquals(bytes, api().get(ARTIFACT + "/content", id).then().statusCode(200)
                .extract().asByteArray());
    }

    /**
     * The answer to a bind is the artifact as stored, which every later read returns: a capture time finer than
     * PostgreSQL's microseconds is rounded in both, and the capture is what was kept.
     */
    @Test
    void theBindsAnswerIsTheArtifactAsEveryReadReturnsIt() {
        String key = Fixtures.newIncident("demo");
        String digest = Fixtures.upload(Evidence.uniqueBytes(300));
        Map<String, Object> body = Fixtures.artifact("fine-grained", digest);
        body.put("capturedAt", "2026-06-18T10:20:00.123456789+02:00");
        body.put("capture", Map.of("z", 1, "a", List.of(1, 2.5, "x"), "nested", Map.of("k", "v")));

        Map<String, Object> bound = json(body).post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", "demo", key)
                .then().statusCode(201).extract().jsonPath().getMap("");
        Map<String, Object> read = api().get("/api/v1/artifacts/{id}", bound.get("id")).then().statusCode(200)
                .extract().jsonPath().getMap("");

        assertEquals("2026-06-18T08:20:00.123457Z", bound.get("capturedAt"));
        for (String field : List.of("id", "digest", "size", "mediaType", "source", "kind", "capturedAt", "createdAt",
                "createdBy", "description", "capture")) {
            assertEquals(read.get(field), bound.get(field), field);
        }
    }

    @Test
    void neverOverwritesEvidence() {
        String key = Fixtures.newIncident("demo");
        String original = Fixtures.upload(Evidence.uniqueBytes(50));
        String other = Fixtures.upload(Evidence.uniqueBytes(50));
        String id = json(Fixtures.artifact("kubernetes-workers", original)).post(ARTIFACTS, "demo", key)
                .then().statusCode(201).extract().path("id");
        problem(invalidJson(Fixtures.artifact("kubernetes-workers", other)).post(ARTIFACTS, "demo", key).then(), 409,
                "artifact-name-taken")
                .body("artifactId", equalTo(id))
                .body("boundDigest", equalTo(original));
        api().get(ARTIFACT, id).then().statusCode(200).body("digest", equalTo(original));
    }

    @Test
    void holdsTheFourArtifactsOfTheModelInvestigation() {
        String key = Fixtures.newIncident("demo");
        Map<String, String> sources = Map.of("grafana-checkout", "grafana", "kubernetes-workers", "kubernetes",
                "github-deployment", "github", "intercom-readiness", "intercom");
        for (Map.Entry<String, String> artifact : sources.entrySet()) {
            Map<String, Object> body = Fixtures.artifact(artifact.getKey(),
                    Fixtures.upload(Evidence.utf8(artifact.getKey() + " " + key)));
            body.put("source", artifact.getValue());
            if (artifact.getValue().equals("intercom")) {
                body.put("kind", "source-unavailable");
                body.put("description", "Intercom connector not configured; customer reports assessed from incident records");
                body.remove("capture");
            }
            json(body).post(ARTIFACTS, "demo", key).then().statusCode(201);
        }
        api().get(ARTIFACTS, "demo", key).then().statusCode(200)
                .body("items.name", contains("github-deployment", "grafana-checkout", "intercom-readiness",
                        "kubernetes-workers"))
                .body("items.find { it.name == 'intercom-readiness' }.kind", equalTo("source-unavailable"))
                .body("items.find { it.name == 'intercom-readiness' }.capture", nullValue());
    }

    @Test
    void oneBlobBacksArtifactsInManyIncidents() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(2000);
        String digest = Fixtures.upload(bytes);
        for (int i = 0; i < 3; i++) {
            String key = Fixtures.newIncident("demo");
            json(Fixtures.artifact("shared-panel", digest)).post(ARTIFACTS, "demo", key).then().statusCode(201);
        }
        assertEquals(1, Sql.count("SELECT count(*) FROM blob WHERE digest = ?", digest));
        assertEquals(1, Sql.count("SELECT count(*) FROM blob_content WHERE digest = ?", digest));
        assertEquals(3, Sql.count("SELECT count(*) FROM artifact WHERE digest = ?", digest));
    }

    @Test
    void refusesUnknownBlobsAndIncidents() {
        String key = Fixtures.newIncident("demo");
        String missing = Evidence.digestOf(Evidence.uniqueBytes(10));
        problem(invalidJson(Fixtures.artifact("panel", missing)).post(ARTIFACTS, "demo", key).then(), 422, "unknown-blob")
                .body("digest", equalTo(missing));
        String digest = Fixtures.upload(Evidence.uniqueBytes(10));
        problem(invalidJson(Fixtures.artifact("panel", digest)).post(ARTIFACTS, "demo", "NOPE-404").then(), 404, "not-found");
        problem(invalidJson(Fixtures.artifact("panel", digest)).post(ARTIFACTS, "elsewhere", key).then(), 404, "not-found");
    }

    @Test
    void namesEveryInvalidField() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Grafana Panel");
        body.put("digest", "sha256:XYZ");
        body.put("mediaType", "json");
        body.put("source", "Grafana!");
        body.put("kind", "screenshot");
        body.put("capturedAt", "yesterday");
        body.put("capture", List.of("not", "an", "object"));
        problem(invalidJson(body).post(ARTIFACTS, "demo", key).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("name", "digest", "mediaType", "source", "kind",
                        "capturedAt", "capture"));
        problem(invalidJson(Map.of()).post(ARTIFACTS, "demo", key).then(), 400, "invalid-request")
                .body("errors.field", containsInAnyOrder("name", "digest", "mediaType", "source", "kind",
                        "capturedAt"));
        Map<String, Object> unknownField = Fixtures.artifact("panel", Fixtures.upload(Evidence.uniqueBytes(5)));
        unknownField.put("createdAt", "2020-01-01T00:00:00Z");
        problem(invalidJson(unknownField).post(ARTIFACTS, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("createdAt"));
        api().get(ARTIFACTS, "demo", key).then().statusCode(200).body("items", org.hamcrest.Matchers.hasSize(0));
    }

    @Test
    void refusesMediaTypesThatCouldBreakHeadersOrPages() {
        String key = Fixtures.newIncident("demo");
        Map<String, Object> body = Fixtures.artifact("panel", Fixtures.upload(Evidence.uniqueBytes(8)));
        body.put("mediaType", "text/plain; x=\"a\n\n## Forged\r\nX-Evil: 1\"");
        problem(invalidJson(body).post(ARTIFACTS, "demo", key).then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("mediaType"));
    }

    @Test
    void servesContentWithTheArtifactsMediaType() {
        byte[] bytes = Evidence.utf8("{\"replicas\": 12, \"ready\": 12, \"n\": " + System.nanoTime() + "}");
        String id = Fixtures.storedArtifact("demo", "kubernetes-workers", bytes);
        String digest = Evidence.digestOf(bytes);
        byte[] served = api().get(ARTIFACT + "/content", id).then().statusCode(200)
                .contentType("application/json")
                .header("Content-Length", String.valueOf(bytes.length))
                .header("ETag", "\"" + digest + "\"")
                .header("Repr-Digest", org.hamcrest.Matchers.startsWith("sha-256=:"))
                .extract().asByteArray();
        assertArrayEquals(bytes, served);
        api().header("Range", "bytes=0-0").get(ARTIFACT + "/content", id).then().statusCode(206)
                .header("Content-Range", "bytes 0-0/" + bytes.length).body(equalTo("{"));
        api().header("If-None-Match", "\"" + digest + "\"").get(ARTIFACT + "/content", id).then().statusCode(304);
        api().head(ARTIFACT + "/content", id).then().statusCode(200)
                .header("Content-Length", String.valueOf(bytes.length));
    }

    @Test
    void refusesMalformedArtifactIds() {
        List<String> malformed = List.of("grafana-checkout", "artifact:demo:v2:INC-1:x", "artifact:Demo:v1:INC-1:x",
                "artifact:demo:v1:inc-1:x", "artifact:demo:v1:INC-1:X", "artifact:demo:v1:INC-1:x:y",
                "artifact:demo:v1:INC-1:..%2F..%2Fetc", "artifact:demo:v1:INC-1:");
        for (String id : malformed) {
            problem(invalid().urlEncodingEnabled(false).get("/api/v1/artifacts/" + id).then(), 400, "invalid-request")
                    .body("errors[0].field", equalTo("id"));
            problem(invalid().urlEncodingEnabled(false).get("/api/v1/artifacts/" + id + "/content").then(), 400,
                    "invalid-request");
        }
        problem(invalid().get(ARTIFACT, "artifact:demo:v1:NOPE-1:x").then(), 404, "not-found");
        problem(invalid().get(ARTIFACT + "/content", "artifact:demo:v1:NOPE-1:x").then(), 404, "not-found");
    }

    @Test
    void concurrentBindsOfOneNameToTwoDigestsCreateExactlyOne() throws Exception {
        for (int round = 0; round < 5; round++) {
            String key = Fixtures.newIncident("demo");
            String a = Fixtures.upload(Evidence.uniqueBytes(64));
            String b = Fixtures.upload(Evidence.uniqueBytes(64));
            List<Response> responses = race(key, List.of(a, b));
            assertEquals(List.of(201, 409), responses.stream().map(Response::statusCode).sorted().toList());
        }
        String key = Fixtures.newIncident("demo");
        String a = Fixtures.upload(Evidence.uniqueBytes(64));
        String b = Fixtures.upload(Evidence.uniqueBytes(64));
        List<String> digests = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            digests.add(i % 2 == 0 ? a : b);
        }
        List<Response> responses = race(key, digests);
        List<Integer> statuses = responses.stream().map(Response::statusCode).toList();
        assertEquals(1, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
        assertEquals(9, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
        assertEquals(10, statuses.stream().filter(s -> s == 409).count(), statuses.toString());
        assertEquals(1, Sql.count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                + "WHERE i.incident_key = ? AND a.name = 'contested'", key));
    }

    private static List<Response> race(String key, List<String> digests) throws Exception {
        List<Callable<Response>> binds = new ArrayList<>();
        for (String digest : digests) {
            binds.add(() -> json(Fixtures.artifact("contested", digest)).post(ARTIFACTS, "demo", key));
        }
        return Concurrently.run(binds);
    }
}
