package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Probes;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.Header;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static dev.evidencestore.api.IntegrityApiTest.CONTENT;
import static dev.evidencestore.support.Api.anonymous;
import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads answered from memory on the event loop ({@link HeldContentRoute}): the same answer as the resource's, byte
 * for byte and header for header, and every other request left to the resource, which refuses as it always does.
 */
@QuarkusTest
class HeldContentRouteTest {

    private static final String HELD = "evidence_reads_held_total";
    private static final String KNOWN = "before-authentication";
    private static final String RESOLVED = "after-authentication";

    private static double held() {
        return held(KNOWN) + held(RESOLVED);
    }

    private static double held(String stage) {
        return Probes.metric(HELD + "{stage=\"" + stage + "\"}");
    }

    /** The damaged list is read once after start; until then every read takes the resource's way. */
    @BeforeEach
    void damagedListRead() throws InterruptedException {
        for (int waited = 0; Double.isNaN(Probes.metric("evidence_blobs_damaged")) && waited < 100; waited++) {
            Thread.sleep(100);
        }
        assertFalse(Double.isNaN(Probes.metric("evidence_blobs_damaged")), "the damaged list was never read");
    }

    /** An artifact read once through the resource, which leaves it and its bytes in memory. */
    private static String readOnce(String workspace, byte[] bytes) {
        String id = Fixtures.storedArtifact(workspace, "grafana-checkout", bytes);
        assertArrayEquals(bytes, api().get(CONTENT, id).then().statusCode(200).extract().asByteArray());
        return id;
    }

    private static Map<String, String> headers(Response response) {
        Map<String, String> headers = new TreeMap<>();
        for (Header header : response.headers()) {
            headers.merge(header.getName().toLowerCase(Locale.ROOT), header.getValue(), (a, b) -> a + ", " + b);
        }
        return headers;
    }

    @Test
    void aSecondReadIsTheResourcesAnswerFromMemory() {
        byte[] bytes = Evidence.uniqueBytes(3000);
        String id = Fixtures.storedArtifact("held", "grafana-checkout", bytes);
        Response first = api().get(CONTENT, id);
        double before = held();

        Response second = api().get(CONTENT, id);

        assertEquals(before + 1, held());
        assertEquals(200, first.statusCode());
        assertEquals(200, second.statusCode());
        assertArrayEquals(bytes, second.asByteArray());
        assertEquals(headers(first), headers(second));
        String digest = Evidence.digestOf(bytes);
        assertEquals(Map.of(
                "accept-ranges", "bytes",
                "cache-control", "private, max-age=31536000, immutable",
                "content-length", "3000",
                "content-security-policy", "sandbox; default-src 'none'",
                "content-type", "application/json",
                "etag", "\"" + digest + "\"",
                "repr-digest", "sha-256=:" + Base64.getEncoder().encodeToString(
                        HexFormat.of().parseHex(digest.substring("sha256:".length()))) + ":",
                "x-content-type-options", "nosniff"), headers(second));
        String metrics = RestAssured.given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertFalse(metrics.contains(id), "/q/metrics names the read by its template, never by the ID");
        assertTrue(metrics.contains("uri=\"/api/v1/artifacts/{id}/content\""), "the template is in /q/metrics");
    }

    @Test
    void aMatchingIfNoneMatchIs304FromMemory() {
        byte[] bytes = Evidence.uniqueBytes(2000);
        String id = readOnce("held", bytes);
        String etag = "\"" + Evidence.digestOf(bytes) + "\"";
        double before = held();

        Response notModified = api().header("If-None-Match", "\"sha256:other\", " + etag).get(CONTENT, id);

        assertEquals(before + 1, held());
        assertEquals(304, notModified.statusCode());
        assertEquals(0, notModified.asByteArray().length);
        assertEquals(etag, notModified.header("ETag"));
        assertEquals("private, max-age=31536000, immutable", notModified.header("Cache-Control"));
    }

    @Test
    void aRangeIsLeftToTheResource() {
        byte[] bytes = Evidence.uniqueBytes(2000);
        String id = readOnce("held", bytes);
        double before = held();

        byte[] part = api().header("Range", "bytes=10-19").get(CONTENT, id).then().statusCode(206)
                .header("Content-Range", "bytes 10-19/2000").extract().asByteArray();

        assertArrayEquals(Arrays.copyOfRange(bytes, 10, 20), part);
        assertEquals(before, held());
    }

    /** Whoever may not read the workspace is refused by the resource, as if nothing were held. */
    @Test
    void everyRefusalIsTheResourcesOwn() {
        String id = readOnce("held", Evidence.uniqueBytes(1000));
        double before = held();

        problem(as(Tokens.of("carol", Set.of("reader"), List.of("elsewhere"))).get(CONTENT, id).then(), 404,
                "not-found");
        problem(invalidAs(Tokens.badSignature()).get(CONTENT, id).then(), 401, "unauthorized");
        problem(invalidAs(Tokens.expired()).get(CONTENT, id).then(), 401, "unauthorized");
        problem(anonymous().get(CONTENT, id).then(), 401, "unauthorized");
        problem(as(Tokens.of("dave", Set.of(), null)).get(CONTENT, id).then(), 403, "forbidden");

        assertEquals(before, held());
    }

    @Test
    void anAnonymousReadOfAPublicWorkspaceIsServedFromMemory() {
        byte[] bytes = Evidence.uniqueBytes(1500);
        String id = readOnce("public-demo", bytes);
        double before = held();

        assertArrayEquals(bytes, anonymous().get(CONTENT, id).then().statusCode(200).extract().asByteArray());

        assertEquals(before + 1, held());
    }

    @Test
    void aMalformedIdIsTheResourcesBadRequest() {
        double before = held();

        problem(invalidAs(Tokens.alice()).get(CONTENT, "artifact:not an id").then(), 400, "invalid-request");

        assertEquals(before, held());
    }

    /** A bearer header authentication resolved before is known ahead of it: the same answer, without it. */
    @Test
    void aRepeatedBearerHeaderIsAnsweredBeforeAuthentication() {
        byte[] bytes = Evidence.uniqueBytes(2500);
        String token = Tokens.of("erin-" + Evidence.uniqueKey().toLowerCase(Locale.ROOT), Set.of("reader"), null);
        String id = Fixtures.storedArtifact("held", "grafana-checkout", bytes);
        Response first = as(token).get(CONTENT, id);
        double known = held(KNOWN);
        double resolved = held(RESOLVED);

        Response second = as(token).get(CONTENT, id);
        Response third = as(token).get(CONTENT, id);

        assertEquals(200, first.statusCode());
        assertArrayEquals(bytes, second.asByteArray());
        assertArrayEquals(bytes, third.asByteArray());
        assertEquals(headers(first), headers(second));
        assertEquals(headers(first), headers(third));
        assertEquals(known + 2, held(KNOWN));
        assertEquals(resolved, held(RESOLVED));
    }

    /**
     * Authentication accepts a token up to its clock skew past {@code exp}; what is known ahead of it never outlives
     * the {@code exp} itself, so such a token goes through authentication every time.
     */
    @Test
    void aTokenPastItsExpIsNeverKnownBeforeAuthentication() throws InterruptedException {
        String id = readOnce("held", Evidence.uniqueBytes(1200));
        String pastExp = Tokens.expiringIn(-20);
        double known = held(KNOWN);
        double resolved = held(RESOLVED);

        as(pastExp).get(CONTENT, id).then().statusCode(200);
        as(pastExp).get(CONTENT, id).then().statusCode(200);

        assertEquals(known, held(KNOWN));
        assertEquals(resolved + 2, held(RESOLVED));

        long exp = Instant.now().getEpochSecond() + 2;
        String expiring = Tokens.expiringIn(2);
        as(expiring).get(CONTENT, id).then().statusCode(200);
        as(expiring).get(CONTENT, id).then().statusCode(200);
        assertEquals(known + 1, held(KNOWN), "known ahead of authentication while before its exp");
        while (Instant.now().getEpochSecond() <= exp) {
            Thread.sleep(100);
        }
        as(expiring).get(CONTENT, id).then().statusCode(200);
        assertEquals(known + 1, held(KNOWN), "not once its exp has passed");
        assertEquals(resolved + 4, held(RESOLVED));
    }
}
