package dev.evidencestore.security;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every route against every way a caller can be wrong: no token, a forged, unsigned, expired or foreign token, the
 * wrong role, another workspace; and the same through path spellings that reach the same resource. Each case must
 * get the same decision on every spelling, and only the right caller gets through.
 */
@QuarkusTest
class SecurityMatrixTest {

    private static final String WS = "matrix-a";
    private static final String KEY = "M-1";
    private static final String INCIDENT = "/api/v1/workspaces/" + WS + "/incidents/" + KEY;
    private static final String ARTIFACT = "artifact:" + WS + ":v1:" + KEY + ":panel";
    private static final String FINDING = "finding:" + WS + ":v1:" + KEY + ":queue-rise";
    private static final String ACTION = "action:" + WS + ":v1:" + KEY + ":1";
    private static final String EMPTY_BLOB = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private static String digest;
    private static boolean seeded;

    /** One route: how to call it, the role it needs, and what the right caller gets. */
    private record Route(String method, String path, String role, int allowed, boolean inWorkspace) {
    }

    private static List<Route> routes() {
        List<Route> routes = new ArrayList<>();
        String incidents = "/api/v1/workspaces/" + WS + "/incidents";
        routes.add(new Route("GET", incidents, "reader", 200, true));
        routes.add(new Route("POST", incidents, "investigator", 400, true));
        routes.add(new Route("GET", INCIDENT, "reader", 200, true));
        routes.add(new Route("PATCH", INCIDENT, "investigator", 200, true));
        routes.add(new Route("GET", INCIDENT + "/artifacts", "reader", 200, true));
        routes.add(new Route("POST", INCIDENT + "/artifacts", "collector", 400, true));
        routes.add(new Route("GET", INCIDENT + "/findings", "reader", 200, true));
        routes.add(new Route("POST", INCIDENT + "/findings", "investigator", 400, true));
        routes.add(new Route("GET", INCIDENT + "/root-cause", "reader", 200, true));
        routes.add(new Route("PUT", INCIDENT + "/root-cause", "investigator", 400, true));
        routes.add(new Route("POST", INCIDENT + "/root-cause/reviews", "reviewer", 400, true));
        routes.add(new Route("GET", INCIDENT + "/timeline", "reader", 200, true));
        routes.add(new Route("POST", INCIDENT + "/timeline", "investigator", 400, true));
        routes.add(new Route("GET", INCIDENT + "/actions", "reader", 200, true));
        routes.add(new Route("POST", INCIDENT + "/actions", "investigator", 400, true));
        routes.add(new Route("GET", "/api/v1/artifacts/" + ARTIFACT, "reader", 200, true));
        routes.add(new Route("GET", "/api/v1/artifacts/" + ARTIFACT + "/content", "reader", 200, true));
        routes.add(new Route("HEAD", "/api/v1/artifacts/" + ARTIFACT + "/content", "reader", 200, true));
        routes.add(new Route("GET", "/api/v1/artifacts/" + ARTIFACT + "/verifications", "reader", 200, true));
        routes.add(new Route("POST", "/api/v1/artifacts/" + ARTIFACT + "/verifications", "reviewer", 201, true));
        routes.add(new Route("GET", "/api/v1/artifacts/" + ARTIFACT + "/citations", "reader", 200, true));
        routes.add(new Route("GET", "/api/v1/findings/" + FINDING, "reader", 200, true));
        routes.add(new Route("PATCH", "/api/v1/findings/" + FINDING, "investigator", 200, true));
        routes.add(new Route("POST", "/api/v1/findings/" + FINDING + "/reviews", "reviewer", 400, true));
        routes.add(new Route("GET", "/api/v1/actions/" + ACTION, "reader", 200, true));
        routes.add(new Route("PATCH", "/api/v1/actions/" + ACTION, "investigator", 200, true));
        routes.add(new Route("GET", "/api/v1/blobs/" + digest, "reader", 200, true));
        routes.add(new Route("HEAD", "/api/v1/blobs/" + digest, "reader", 200, true));
        routes.add(new Route("PUT", "/api/v1/blobs/" + EMPTY_BLOB, "collector", -1, false));
        routes.add(new Route("POST", "/api/v1/blobs", "collector", -1, false));
        routes.add(new Route("GET", "/api/v1/workspaces/" + WS + "/audit", "reader", 200, true));
        routes.add(new Route("POST", "/api/v1/audit/checkpoints", "reviewer", 201, false));
        routes.add(new Route("GET", "/api/v1/audit/checkpoints/latest", "reader", 200, false));
        routes.add(new Route("POST", "/api/v1/audit/verify", "reader", 200, false));
        routes.add(new Route("GET", "/api/v1/integrity", "reader", 200, false));
        return routes;
    }

    /** Spellings that reach the same resource as the canonical path. */
    private static List<String> spellings(String path) {
        int last = path.lastIndexOf('/');
        return List.of(path, path.replaceFirst("^/api/v1/", "/api/v1//"), path.replaceFirst("^/api/v1/", "/api/v1/./"),
                path + ";x=1", path.substring(0, last) + ";x=1" + path.substring(last));
    }

    @BeforeEach
    void seed() {
        if (seeded) {
            return;
        }
        seeded = true;
        String alice = Tokens.alice();
        given(alice).contentType(ContentType.JSON)
                .body(Map.of("key", KEY, "title", "Matrix", "severity", "SEV-3", "impactStart", "2026-06-18T09:00:00Z"))
                .post("/api/v1/workspaces/" + WS + "/incidents").then().statusCode(201);
        byte[] bytes = Evidence.uniqueBytes(64);
        digest = Evidence.digestOf(bytes);
        given(alice).contentType(ContentType.BINARY).body(bytes).put("/api/v1/blobs/" + digest).then().statusCode(201);
        given(alice).contentType(ContentType.JSON).body(Map.of("name", "panel", "digest", digest,
                        "mediaType", "application/octet-stream", "source", "grafana", "kind", "snapshot",
                        "capturedAt", "2026-06-18T09:00:00Z"))
                .post(INCIDENT + "/artifacts").then().statusCode(201);
        given(alice).contentType(ContentType.JSON).body(Map.of("name", "queue-rise", "kind", "supporting",
                        "statement", "Queue rose.", "artifactIds", List.of(ARTIFACT)))
                .post(INCIDENT + "/findings").then().statusCode(201);
        given(alice).contentType(ContentType.JSON).body(Map.of("statement", "Batch size.", "confidence", "low",
                        "findingIds", List.of(FINDING)))
                .put(INCIDENT + "/root-cause").then().statusCode(201);
        given(alice).contentType(ContentType.JSON).body(Map.of("at", "2026-06-18T09:05:00Z", "event", "Declared."))
                .post(INCIDENT + "/timeline").then().statusCode(201);
        given(alice).contentType(ContentType.JSON).body(Map.of("action", "Fix it.", "owner", "Ivo",
                        "due", "2099-01-01"))
                .post(INCIDENT + "/actions").then().statusCode(201);
        given(alice).post("/api/v1/audit/checkpoints").then().statusCode(201);
    }

    private static RequestSpecification given(String token) {
        RequestSpecification request = RestAssured.given().urlEncodingEnabled(false);
        return token == null ? request : request.auth().oauth2(token);
    }

    private static Response call(Route route, String path, String token) {
        RequestSpecification request = given(token);
        if (route.path().equals("/api/v1/audit/verify")) {
            return request.contentType(ContentType.JSON).body("{}").request(route.method(), path);
        }
        if (route.path().startsWith("/api/v1/audit/")) {
            return request.request(route.method(), path);
        }
        if (route.path().startsWith("/api/v1/blobs") && !route.method().equals("GET")
                && !route.method().equals("HEAD")) {
            request.contentType(ContentType.BINARY).body(new byte[0]);
        } else if (!route.method().equals("GET") && !route.method().equals("HEAD")) {
            request.contentType(ContentType.JSON).body(route.path().endsWith("/verifications") ? "" : "{}");
        }
        return request.request(route.method(), path);
    }

    private static Map<String, String> callers(Route route) {
        Set<String> otherRoles = new HashSet<>(Tokens.ALL_ROLES);
        otherRoles.remove(route.role());
        Map<String, String> callers = new LinkedHashMap<>();
        callers.put("no token", null);
        callers.put("bad signature", Tokens.badSignature());
        callers.put("alg none", Tokens.algNone());
        callers.put("expired", Tokens.expired());
        callers.put("wrong issuer", Tokens.wrongIssuer());
        callers.put("wrong role", route.role().equals("reader") ? Tokens.of("eve", Set.of("auditor"), null)
                : Tokens.of("eve", otherRoles, null));
        callers.put("other workspace", Tokens.of("otto", Tokens.ALL_ROLES, List.of("matrix-b")));
        callers.put("right role", Tokens.of("rita", Set.of(route.role()), List.of(WS)));
        return callers;
    }

    private static int expected(Route route, String caller) {
        return switch (caller) {
            case "no token", "bad signature", "alg none", "expired", "wrong issuer" -> 401;
            case "wrong role" -> 403;
            case "other workspace" -> route.inWorkspace() ? 404 : route.allowed();
            default -> route.allowed();
        };
    }

    @Test
    void everyRouteDecidesTheSameForEverySpelling() {
        List<String> failures = new ArrayList<>();
        for (Route route : routes()) {
            for (Map.Entry<String, String> caller : callers(route).entrySet()) {
                int want = expected(route, caller.getKey());
                for (String spelling : spellings(route.path())) {
                    int got = call(route, spelling, caller.getValue()).statusCode();
                    boolean ok = want == -1 ? got == 200 || got == 201 : got == want;
                    if (!ok) {
                        failures.add(route.method() + " " + spelling + " as " + caller.getKey() + ": " + got
                                + ", expected " + (want == -1 ? "200/201" : want));
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    /** An encoded slash reaches no resource: nobody gets through, and without a token the answer stays 401. */
    @Test
    void encodedSlashesNeverLetAnyoneThrough() {
        List<String> failures = new ArrayList<>();
        for (Route route : routes()) {
            int last = route.path().lastIndexOf('/');
            String encoded = route.path().substring(0, last) + "%2F" + route.path().substring(last + 1);
            for (Map.Entry<String, String> caller : callers(route).entrySet()) {
                int got = call(route, encoded, caller.getValue()).statusCode();
                // 405: the encoded path matched a resource that takes no such method
                boolean ok = caller.getValue() == null ? got == 401 : Set.of(400, 401, 403, 404, 405).contains(got);
                if (!ok) {
                    failures.add(route.method() + " " + encoded + " as " + caller.getKey() + ": " + got);
                }
            }
        }
        assertEquals(List.of(), failures);
    }
}
