package dev.evidencestore.http;

import dev.evidencestore.support.Api;
import dev.evidencestore.support.RawHttp;
import dev.evidencestore.support.Tokens;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /q/metrics}, which Prometheus scrapes without a token, names requests by route template only: requests
 * to many distinct paths (digests, IDs, junk), refused at every stage, leave no path behind and no new tag value.
 */
@QuarkusTest
class MetricUriTagsTest {

    /** The HTML pages, which the contract of the API does not list. */
    private static final Set<String> PAGES = Set.of("/", "/workspaces/{workspace}", "/artifacts/{id}",
            "/findings/{id}", "/workspaces/{workspace}/incidents/{key}", "/sign-in", "/sign-out");
    private static final Pattern PATH = Pattern.compile("(?m)^  (/\\S*):$");
    private static final Pattern URI_TAG = Pattern.compile("(?m)^http_server_requests_seconds_count\\{(.*)} \\S+$");
    private static final Pattern TAG = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    @Inject
    RouteTemplateTags tags;

    private static Set<String> contractPaths() throws IOException {
        Set<String> paths = new TreeSet<>();
        Matcher path = PATH.matcher(Files.readString(Api.CONTRACT_FILE));
        while (path.find()) {
            paths.add(path.group(1));
        }
        return paths;
    }

    @Test
    void theTemplatesAreTheContractsPathsAndThePages() throws IOException {
        Set<String> expected = new TreeSet<>(contractPaths());
        expected.addAll(PAGES);
        assertEquals(expected, new TreeSet<>(tags.templates()));
    }

    @Test
    void manyDistinctPathsRefusedAnywhereLeaveOnlyTemplatesBehind() throws IOException {
        String marker = UUID.randomUUID().toString().replace("-", "");
        RawHttp raw = new RawHttp(RestAssured.port);
        String alice = "Bearer " + Tokens.alice();
        for (int i = 0; i < 20; i++) {
            String unique = marker + i;
            String digest = "sha256:" + (unique + "0".repeat(64)).substring(0, 64);
            // matched by JAX-RS: 404 unknown blob, 401 without a token, 415 (before the token), 405
            RestAssured.given().header("Authorization", alice).get("/api/v1/blobs/" + digest);
            RestAssured.given().get("/api/v1/artifacts/artifact:demo:v1:INC-" + i + ":x" + unique);
            RestAssured.given().post("/api/v1/artifacts/artifact:demo:v1:INC-1:x" + unique + "/verifications");
            RestAssured.given().header("Authorization", alice).delete("/api/v1/artifacts/x" + unique);
            RestAssured.given().header("Authorization", alice).contentType("text/csv").body("a")
                    .post("/api/v1/workspaces/w" + i + "/incidents");
            // not matched at all, with and without a token
            RestAssured.given().get("/api/v1/" + unique);
            RestAssured.given().header("Authorization", alice).get("/api/v1/" + unique + "/deeper");
            RestAssured.given().get("/" + unique + ".php");
            // refused by the router or Vert.x: an undecodable path, a method nobody knows
            raw.send("GET", "/api/v1/artifacts/%zz" + unique, Map.of(), new byte[0], null, false);
            raw.send("FROB" + i, "/api/v1/blobs/" + unique, Map.of(), new byte[0], null, false);
        }
        String metrics = RestAssured.given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertFalse(metrics.contains(marker), "a raw path reached the metrics");

        Set<String> known = new HashSet<>(contractPaths());
        known.addAll(PAGES);
        known.addAll(RouteTemplateTags.FIXED);
        Set<String> uris = new TreeSet<>();
        Set<String> methods = new TreeSet<>();
        Set<String> refused = new TreeSet<>();
        Matcher sample = URI_TAG.matcher(metrics);
        while (sample.find()) {
            Map<String, String> sampleTags = tagsOf(sample.group(1));
            uris.add(sampleTags.get("uri"));
            methods.add(sampleTags.get("method"));
            refused.add(sampleTags.get("method") + " " + sampleTags.get("uri") + " " + sampleTags.get("status"));
        }
        assertTrue(known.containsAll(uris), "unknown uri tags: " + uris.stream().filter(u -> !known.contains(u))
                .toList());
        assertTrue(Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "UNKNOWN").containsAll(methods),
                methods.toString());
        assertTrue(refused.containsAll(List.of("GET /api/v1/blobs/{digest} 404", "GET /api/v1/artifacts/{id} 401",
                "POST /api/v1/artifacts/{id}/verifications 415", "DELETE /api/v1/artifacts/{id} 405",
                "POST /api/v1/workspaces/{workspace}/incidents 415", "GET UNKNOWN 401", "GET NOT_FOUND 404",
                "GET /api/v1/artifacts/{id} 400", "UNKNOWN /api/v1/blobs/{digest} 401")), refused.toString());
    }

    /** What the server measured before JAX-RS matched (a 503 of admission, a reset) gets the template too. */
    @Test
    void aRawPathIsNamedByItsTemplateOrAsUnknown() {
        assertEquals("/api/v1/blobs/{digest}", uriOf("/api/v1/blobs/sha256:" + "a".repeat(64), "503"));
        assertEquals("/api/v1/workspaces/{workspace}/incidents/{key}/root-cause/reviews",
                uriOf("/api/v1/workspaces/demo/incidents/INC-1/root-cause/reviews/", "503"));
        assertEquals("/api/v1/audit/checkpoints/latest", uriOf("/api/v1/audit/checkpoints/latest", "503"));
        assertEquals("/api/v1/blobs/{digest}", uriOf("/api/v1/blobs/{digest}", "201"));
        assertEquals("UNKNOWN", uriOf("/api/v1/nothing/here/at/all", "503"));
        assertEquals("NOT_FOUND", uriOf("/wp-login.php", "404"));
        assertEquals("UNKNOWN", uriOf("/wp-login.php", "RESET"));
        assertEquals("root", uriOf("root", "200"));
    }

    private String uriOf(String uri, String status) {
        return tags.map(new Meter.Id("http.server.requests", Tags.of("uri", uri, "status", status, "method", "GET"),
                null, null, Meter.Type.TIMER)).getTag("uri");
    }

    private static Map<String, String> tagsOf(String tags) {
        Map<String, String> found = new HashMap<>();
        Matcher tag = TAG.matcher(tags);
        while (tag.find()) {
            found.put(tag.group(1), tag.group(2));
        }
        return found;
    }
}
