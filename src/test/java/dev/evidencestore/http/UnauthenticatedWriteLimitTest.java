package dev.evidencestore.http;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.evidencestore.support.Api.anonymous;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.incident;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Beyond three writes without a valid token per address and window, writes without one are answered 429 with
 * Retry-After and recorded in one aggregate entry per address and window, written when the window ends; those
 * within the rate keep their own entries, and writes with a valid token are never refused so.
 */
@QuarkusTest
@TestProfile(Profiles.ShortDeadlinesAndLowRate.class)
class UnauthenticatedWriteLimitTest {

    private static final long WINDOW_MILLIS = Profiles.UNAUTHENTICATED_WINDOW_MILLIS;

    @Test
    void beyondTheRateWritesWithoutAValidTokenAre429AndOneAggregateEntry() throws Exception {
        String workspace = "limit-" + Evidence.uniqueKey().toLowerCase();
        String incidents = "/api/v1/workspaces/" + workspace + "/incidents";
        long window = freshWindow();

        for (int i = 0; i < 3; i++) {
            problem(anonymous().contentType(ContentType.JSON).body(incident("LIM-" + i)).post(incidents).then(),
                    401, "unauthorized");
        }
        tooMany(anonymous().contentType(ContentType.JSON).body(incident("LIM-3")).post(incidents).then());
        tooMany(anonymous().contentType(ContentType.JSON).body(incident("LIM-4")).post(incidents).then());
        // a token that fails verification is no token: unauthenticated too
        tooMany(invalidAs("not.a.token").contentType(ContentType.JSON).body(incident("LIM-5")).post(incidents)
                .then());
        // a valid token is never counted, however many writes without one came from its address
        as(Tokens.alice()).contentType(ContentType.JSON).body(incident("LIM-6")).post(incidents).then()
                .statusCode(201);
        // whatever the operation, even one the path does not have (a DELETE on evidence would be 405)
        tooMany(invalidAs(null).delete("/api/v1/artifacts/artifact:" + workspace + ":v1:LIM-6:x").then());
        assertEquals(window, windowNow(), "every request of the test fell in one window");

        assertEquals(3, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 401"), incidents),
                "the writes within the rate have their own entries");
        assertEquals(0, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 429"), incidents),
                "the writes beyond it have none of their own");

        Instant windowEnd = Instant.ofEpochMilli((window + 1) * WINDOW_MILLIS);
        JsonPath limited = aggregate(windowEnd, 429);
        assertEquals("127.0.0.1", limited.getString("client"));
        assertEquals(4, limited.getInt("count"));
        assertEquals(List.of("POST /api/v1/workspaces/{workspace}/incidents", "DELETE /api/v1/artifacts/{id}"),
                limited.getList("operations"));
        assertEquals(0, limited.getInt("unlisted"));
        Instant first = Instant.parse(limited.getString("first"));
        Instant last = Instant.parse(limited.getString("last"));
        assertTrue(!first.isAfter(last) && first.toEpochMilli() / WINDOW_MILLIS == window, first + " " + last);

    }

    @Test
    void writesWithAValidTokenAreNeverLimited() throws Exception {
        String workspace = "limit-" + Evidence.uniqueKey().toLowerCase();
        String incidents = "/api/v1/workspaces/" + workspace + "/incidents";
        long window = freshWindow();
        for (int i = 0; i < 4; i++) {
            invalidAs(null).contentType(ContentType.JSON).body(incident("NO-" + i)).post(incidents).then()
                    .statusCode(i < 3 ? 401 : 429);
        }
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            statuses.add(as(Tokens.alice()).contentType(ContentType.JSON).body(incident("OK-" + i)).post(incidents)
                    .then().extract().statusCode());
        }
        assertEquals(window, windowNow());
        assertEquals(List.of(201, 201, 201, 201, 201), statuses);
    }

    private static void tooMany(ValidatableResponse response) {
        String retryAfter = problem(response, 429, "too-many-requests")
                .body("detail", equalTo("more than 3 writes without a valid bearer token came from this address in"
                        + " this window; this one has none either; retry after the window ends, with a token"))
                .extract().header("Retry-After");
        long seconds = Long.parseLong(retryAfter);
        assertTrue(seconds >= 1 && seconds <= WINDOW_MILLIS / 1000, retryAfter);
        response.body("retryAfterSeconds", equalTo((int) seconds));
    }

    /**
     * The aggregate entry answered {@code status} that the window ending at {@code windowEnd} left, once written:
     * its members, after checking the entry as a whole (method and path {@code *}, its leaf hashing to it).
     */
    private static JsonPath aggregate(Instant windowEnd, int status) throws Exception {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline) {
            Sql.awaitAuditSequenced();
            try (Connection connection = Sql.connect();
                 PreparedStatement select = connection.prepareStatement("""
                         SELECT seq, actor, method, path, problem, aggregate, entry_hash FROM audit_entry
                         WHERE aggregate IS NOT NULL AND status = ? AND at >= ? ORDER BY seq""")) {
                select.setInt(1, status);
                select.setObject(2, windowEnd.atOffset(java.time.ZoneOffset.UTC));
                try (ResultSet row = select.executeQuery()) {
                    if (row.next()) {
                        assertEquals("anonymous", row.getString("actor"));
                        assertEquals("*", row.getString("method"));
                        assertEquals("*", row.getString("path"));
                        byte[] leaf = as(Tokens.alice()).get("/api/v1/audit/entries/" + (row.getLong("seq") - 1))
                                .then().statusCode(200).extract().asByteArray();
                        assertEquals(row.getString("entry_hash"), "sha256:" + DigestUtils.sha256Hex(leaf));
                        String aggregate = row.getString("aggregate");
                        assertFalse(row.next(), "one aggregate entry per address, status and window");
                        return new JsonPath(aggregate);
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no aggregate entry answered " + status + " after the window ended");
    }

    /**
     * Waits for a window to begin, so that a test's few requests all fall in it. A read first: the first request
     * through the contract filter loads the contract, which takes seconds, and reads are never counted.
     */
    private static long freshWindow() throws InterruptedException {
        as(Tokens.alice()).get("/api/v1/workspaces/limit-warm-up/incidents").then().statusCode(200);
        long now = System.currentTimeMillis();
        Thread.sleep(WINDOW_MILLIS - now % WINDOW_MILLIS + 20);
        return windowNow();
    }

    private static long windowNow() {
        return System.currentTimeMillis() / WINDOW_MILLIS;
    }
}
