package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The citation check does bounded work: its IDs are looked up in a few statements however many there are, each
 * distinct ID is one entry of the answer however often the text repeats it, and a text citing more distinct IDs than
 * the limit is refused before anything is looked up.
 */
@QuarkusTest
class CitationCheckApiTest {

    private static final String WS = "citation-checks";
    private static final String CHECK = "/api/v1/citations/check";
    private static final int MAX_DISTINCT_IDS = 2000;
    private static final Pattern RECORDS = Pattern.compile("(?i)artifact|finding|verification|incident");

    @Inject
    SessionFactory sessions;


    private String key;
    private String verified;
    private String verifiedDigest;
    private String unverified;
    private String finding;

    @BeforeEach
    void investigation() {
        key = Evidence.uniqueKey();
        api().contentType(ContentType.JSON).body(Map.of("key", key, "title", "Citations", "severity", "SEV-3"))
                .post("/api/v1/workspaces/" + WS + "/incidents").then().statusCode(201);
        byte[] bytes = Evidence.utf8("{\"panel\": \"" + key + "\"}");
        verifiedDigest = Evidence.digestOf(bytes);
        verified = artifact("grafana-checkout", bytes);
        unverified = artifact("github-deploy", Evidence.utf8("{\"deploy\": \"" + key + "\"}"));
        as(Tokens.bob()).contentType(ContentType.JSON)
                .post("/api/v1/artifacts/{id}/verifications", verified).then().statusCode(201);
        finding = api().contentType(ContentType.JSON).body(Map.of("name", "queue-after-deploy", "kind", "supporting",
                        "statement", "Queue depth rose.", "artifactIds", List.of(verified)))
                .post(base() + "/findings").then().statusCode(201).extract().path("id");
    }

    @Test
    void theMostDistinctIdsAllowedAreLookedUpInAFewStatements() {
        List<String> ids = new ArrayList<>(List.of(verified, unverified, finding));
        for (int i = ids.size(); i < MAX_DISTINCT_IDS; i++) {
            ids.add((i % 2 == 0 ? "artifact:" : "finding:") + WS + ":v1:" + key + ":missing-" + i);
        }
        long single = lookupsOf(verified);
        long before = lookupsSoFar();
        ExtractableResponse<Response> answer = check(String.join("\n", ids)).body("checked", equalTo(MAX_DISTINCT_IDS))
                .body("mentions", equalTo(MAX_DISTINCT_IDS))
                .body("citations", hasSize(MAX_DISTINCT_IDS))
                .body("ok", equalTo(false))
                .body("citations[0].status", equalTo("ok"))
                .body("citations[0].digest", equalTo(verifiedDigest))
                .body("citations[1].status", equalTo("unverified"))
                .body("citations[2].status", equalTo("ok"))
                .body("citations[3].status", equalTo("unknown"))
                .body("citations[1999].id", equalTo(ids.get(1999)))
                .body("citations[1999].line", equalTo(2000))
                .extract();
        long many = lookupsSoFar() - before;
        // one query per ID would be 2,000; batches of 500 are four per kind at most
        assertEquals(1, single, "queries for one ID");
        assertEquals(4, many, "queries for " + MAX_DISTINCT_IDS + " IDs, half artifacts and half findings");
        assertTrue(answer.asByteArray().length < 400 * 1024, answer.asByteArray().length + " bytes");
    }

    @Test
    void oneDistinctIdMoreThanTheLimitIsRefusedWithTheLimit() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i <= MAX_DISTINCT_IDS; i++) {
            text.append("see artifact:").append(WS).append(":v1:").append(key).append(":panel-").append(i).append('\n');
        }
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("type", "https://evidence-store.dev/problems/text-too-large");
        expected.put("title", "The text is too long to check");
        expected.put("status", 413);
        expected.put("detail", "texts to check may cite at most 2000 distinct artifact and finding IDs; this one "
                + "cites more");
        expected.put("maxDistinctIds", 2000);
        Map<String, Object> body = problem(invalidAs(Tokens.alice())
                .contentType("text/markdown").body(text.toString()).post(CHECK).then(), 413, "text-too-large")
                .extract().jsonPath().getMap("");
        assertEquals(expected, body);
    }

    @Test
    void aRepeatedIdIsOneEntryWithItsWorstLineAndItsCount() {
        String wrongDigest = Evidence.digestOf(new byte[] {1});
        List<String> lines = new ArrayList<>();
        lines.add("Intro");
        for (int i = 0; i < 3000; i++) {
            lines.add(i == 1500 ? verified + " is " + wrongDigest : verified + " and " + verified + " " + verifiedDigest);
        }
        lines.add(finding);
        check(String.join("\n", lines))
                .body("ok", equalTo(false))
                .body("checked", equalTo(2))
                .body("mentions", equalTo(2 * 3000 - 1 + 1))
                .body("citations.id", equalTo(List.of(verified, finding)))
                .body("citations[0].status", equalTo("digest-mismatch"))
                .body("citations[0].line", equalTo(1502))
                .body("citations[0].mentions", equalTo(5999))
                .body("citations[1].line", equalTo(3002))
                .body("citations[1].mentions", equalTo(1));
    }

    @Test
    void aMegabyteOfOneIdGetsAnAnswerOfOneEntry() {
        String line = "Cited: " + unverified + "\n";
        String text = line.repeat(1024 * 1024 / line.length());
        byte[] answer = check(text).body("checked", equalTo(1))
                .body("mentions", equalTo(1024 * 1024 / line.length()))
                .body("citations[0].status", equalTo("unverified"))
                .body("citations[0].line", equalTo(1))
                .extract().asByteArray();
        assertTrue(answer.length < 512, answer.length + " bytes");
    }

    /** The queries a check of this text runs against the records it may cite. */
    private long lookupsOf(String text) {
        long before = lookupsSoFar();
        check(text).body("checked", equalTo(1));
        return lookupsSoFar() - before;
    }

    /**
     * Every query run so far that reads the records a text may cite, by Hibernate's statistics; the audit log's
     * own queries, which run beside requests, do not count.
     */
    private long lookupsSoFar() {
        Statistics statistics = sessions.getStatistics();
        return Arrays.stream(statistics.getQueries()).filter(query -> RECORDS.matcher(query).find())
                .mapToLong(query -> statistics.getQueryStatistics(query).getExecutionCount()).sum();
    }

    private ValidatableResponse check(String text) {
        return api().contentType("text/markdown; charset=UTF-8").body(text).post(CHECK).then().statusCode(200);
    }

    private String base() {
        return "/api/v1/workspaces/" + WS + "/incidents/" + key;
    }

    private String artifact(String name, byte[] bytes) {
        String digest = api().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then().statusCode(201)
                .extract().path("digest");
        return api().contentType(ContentType.JSON).body(Map.of("name", name, "digest", digest,
                        "mediaType", "application/json", "source", "grafana", "kind", "snapshot",
                        "capturedAt", "2026-06-18T10:20:00Z"))
                .post(base() + "/artifacts").then().statusCode(201).extract().path("id");
    }
}
