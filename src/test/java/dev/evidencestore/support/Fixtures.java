package dev.evidencestore.support;

import io.restassured.http.ContentType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.incident;
import static dev.evidencestore.support.Api.json;

/** Builds evidence through the API itself, for tests that need some in place. */
public final class Fixtures {

    private Fixtures() {
    }

    public static String newIncident(String workspace) {
        String key = Evidence.uniqueKey();
        json(incident(key)).post("/api/v1/workspaces/{ws}/incidents", workspace).then().statusCode(201);
        return key;
    }

    public static String upload(byte[] bytes) {
        return api().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs")
                .then().statusCode(201).extract().path("digest");
    }

    public static Map<String, Object> artifact(String name, String digest) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("digest", digest);
        body.put("mediaType", "application/json");
        body.put("source", "grafana");
        body.put("kind", "snapshot");
        body.put("capturedAt", "2026-06-18T10:20:00Z");
        body.put("description", "Checkout p95, worker saturation, retry rate and queue depth, 08:40-10:20 UTC");
        body.put("capture", Map.of("query", "histogram_quantile(0.95, checkout_latency)", "collector", "es-cli 0.1"));
        return body;
    }

    /** Uploads fresh bytes and binds them as {@code name} in a new incident of {@code workspace}; returns the ID. */
    public static String storedArtifact(String workspace, String name, byte[] bytes) {
        String key = newIncident(workspace);
        String digest = upload(bytes);
        return json(artifact(name, digest)).post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", workspace, key)
                .then().statusCode(201).extract().path("id");
    }

    /** An artifact with a finding and a timeline entry citing it, in a new incident. */
    public record Cited(String workspace, String key, String artifactId, String digest, String findingId, String timelineId) {
    }

    public static Cited cited(String workspace, String name, byte[] bytes) {
        String key = newIncident(workspace);
        String digest = upload(bytes);
        String artifactId = bind(workspace, key, name, digest);
        String findingId = json(Map.of("name", "rests-on-" + name, "kind", "supporting",
                "statement", "The panel shows the queue rising.", "artifactIds", List.of(artifactId)))
                .post("/api/v1/workspaces/{ws}/incidents/{key}/findings", workspace, key)
                .then().statusCode(201).extract().path("id");
        String timelineId = json(Map.of("at", "2026-06-18T09:18:00Z", "event", "Queue rise correlated.",
                "artifactIds", List.of(artifactId)))
                .post("/api/v1/workspaces/{ws}/incidents/{key}/timeline", workspace, key)
                .then().statusCode(201).extract().path("id");
        return new Cited(workspace, key, artifactId, digest, findingId, timelineId);
    }

    /** Binds already uploaded bytes as {@code name} in an existing incident; returns the artifact ID. */
    public static String bind(String workspace, String key, String name, String digest) {
        return json(artifact(name, digest)).post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", workspace, key)
                .then().statusCode(201).extract().path("id");
    }
}
