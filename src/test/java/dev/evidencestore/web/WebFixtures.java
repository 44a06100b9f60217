package dev.evidencestore.web;

import dev.evidencestore.support.Evidence;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.reviewerJson;

/**
 * Investigations built through the API for the page tests, once per test run: one in the public-read workspace of
 * the test profile, one whose every text tries to inject markup, and one in a workspace only tokens may read.
 */
final class WebFixtures {

    static final String PUBLIC = "public-demo";
    static final String PRIVATE = "web-private";
    static final String HOSTILE = "<script>alert('pwned')</script> & <img src=x onerror=alert(1)>";

    /** An incident with two artifacts, a verified one cited by a finding and a timeline entry. */
    record Investigation(String workspace, String key, String title, String artifactId, String digest, byte[] bytes,
                         String gapArtifactId, String findingId) {

        String page() {
            return "/workspaces/" + workspace + "/incidents/" + key;
        }

        String artifactPage() {
            return "/artifacts/" + artifactId;
        }
    }

    private static Investigation demo;
    private static Investigation hostile;
    private static Investigation hidden;

    private WebFixtures() {
    }

    static synchronized Investigation demo() {
        if (demo == null) {
            demo = investigation(PUBLIC, "Checkout latency and webhook delays", "Checkout p95, worker saturation, "
                    + "retry rate and queue depth", "Queue depth and retry rate rose right after the deployment.");
        }
        return demo;
    }

    static synchronized Investigation hostile() {
        if (hostile == null) {
            demo(); // so that the demo incident is always the older of the two
            hostile = investigation(PUBLIC, HOSTILE, HOSTILE, HOSTILE);
        }
        return hostile;
    }

    static synchronized Investigation hidden() {
        if (hidden == null) {
            hidden = investigation(PRIVATE, "Private payment outage", "Payment error rate",
                    "Payments failed after the certificate expired.");
        }
        return hidden;
    }

    /** A page request as a browser makes it, without the API's contract filter: pages are not part of the API. */
    static RequestSpecification browser() {
        return RestAssured.given().urlEncodingEnabled(false).accept("text/html,application/xhtml+xml,*/*;q=0.8");
    }

    static RequestSpecification browser(String token) {
        return browser().header("Authorization", "Bearer " + token);
    }

    private static Investigation investigation(String workspace, String title, String description, String statement) {
        String key = Evidence.uniqueKey();
        Map<String, Object> incident = new HashMap<>();
        incident.put("key", key);
        incident.put("title", title);
        incident.put("severity", "SEV-1");
        incident.put("status", "investigating");
        incident.put("services", List.of("Checkout API"));
        incident.put("impactStart", "2026-06-18T09:00:00Z");
        incident.put("commander", "Ivo Nuuskmõmmik");
        json(incident).post("/api/v1/workspaces/{ws}/incidents", workspace).then().statusCode(201);

        byte[] bytes = Evidence.utf8("{\"panel\":\"checkout p95\",\"peak_seconds\":4.8,\"run\":\"" + key + "\"}\n");
        String digest = upload(bytes);
        String artifactId = bind(workspace, key, artifact("grafana-checkout", digest, "grafana", "snapshot",
                description, Map.of("query", "histogram_quantile(0.95, checkout_latency)", "collector", "es-cli 0.1")));
        String gap = upload(Evidence.utf8("{\"source\":\"intercom\",\"reason\":\"connector not configured\",\"run\":\""
                + key + "\"}"));
        String gapArtifactId = bind(workspace, key, artifact("intercom-readiness", gap, "intercom",
                "source-unavailable", "Intercom connector not configured", null));

        String findingId = json(Map.of("name", "queue-after-deploy", "kind", "supporting", "statement", statement,
                        "artifactIds", List.of(artifactId)))
                .post("/api/v1/workspaces/{ws}/incidents/{key}/findings", workspace, key)
                .then().statusCode(201).extract().path("id");
        reviewerJson(Map.of("digest", digest)).post("/api/v1/artifacts/{id}/verifications", artifactId)
                .then().statusCode(201);
        json(Map.of("at", "2026-06-18T09:18:00Z", "event", "Deployment correlated with the queue rise.",
                        "artifactIds", List.of(artifactId)))
                .post("/api/v1/workspaces/{ws}/incidents/{key}/timeline", workspace, key).then().statusCode(201);
        return new Investigation(workspace, key, title, artifactId, digest, bytes, gapArtifactId, findingId);
    }

    private static String upload(byte[] bytes) {
        return api().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs")
                .then().statusCode(201).extract().path("digest");
    }

    private static Map<String, Object> artifact(String name, String digest, String source, String kind,
                                                String description, Map<String, Object> capture) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("digest", digest);
        body.put("mediaType", "application/json");
        body.put("source", source);
        body.put("kind", kind);
        body.put("capturedAt", "2026-06-18T10:20:00Z");
        body.put("description", description);
        if (capture != null) {
            body.put("capture", capture);
        }
        return body;
    }

    private static String bind(String workspace, String key, Map<String, Object> body) {
        return json(body).post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", workspace, key)
                .then().statusCode(201).extract().path("id");
    }
}
