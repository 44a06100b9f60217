package dev.evidencestore.http;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.incident;
import static dev.evidencestore.support.Api.json;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The database drops every connection of the service, as when it restarts: requests that hit a dead connection get
 * 503 with Retry-After and store nothing, and the service recovers without a restart.
 */
@QuarkusTest
class DatabaseOutageTest {

    private static final String INCIDENTS = "/api/v1/workspaces/{ws}/incidents";

    @Test
    void droppedConnectionsAnswer503AndTheServiceRecoversByItself() throws SQLException {
        AtomicReference<String> sent = new AtomicReference<>();
        Response first = firstInOutage(() -> json(incident(fresh(sent))).post(INCIDENTS, "demo"));
        String key = sent.get();
        first.then().statusCode(503)
                .contentType("application/problem+json")
                .header("Retry-After", "5")
                .body("type", equalTo("https://evidence-store.dev/problems/database-unavailable"))
                .body("retryAfterSeconds", equalTo(5));

        int outages = 1;
        int status = 503;
        while (status == 503 && outages < 40) {
            status = json(incident(key)).post(INCIDENTS, "demo").statusCode();
            outages += status == 503 ? 1 : 0;
        }
        assertEquals(201, status, "the incident refused during the outage was not stored, so the retry creates it");
        assertEquals(1, Sql.count("SELECT count(*) FROM incident WHERE incident_key = ?", key));
    }

    /** The claim of an Idempotency-Key, the first use of the database, fails too; nothing is kept of it. */
    @Test
    void retriesWithOneIdempotencyKeyThroughTheOutageCreateOnce() throws SQLException {
        AtomicReference<String> sent = new AtomicReference<>();
        // a key whose first use was answered 201 would be replayed, not tried in the outage: each try a new key
        AtomicReference<String> idempotency = new AtomicReference<>();
        Response first = firstInOutage(() -> json(incident(fresh(sent))).header("Idempotency-Key",
                idempotency.updateAndGet(previous -> UUID.randomUUID().toString())).post(INCIDENTS, "demo"));
        String key = sent.get();
        String idempotencyKey = idempotency.get();
        first.then().statusCode(503).header("Retry-After", "5")
                .body("type", equalTo("https://evidence-store.dev/problems/database-unavailable"));

        Response retry = first;
        for (int outages = 1; retry.statusCode() == 503 && outages < 40; outages++) {
            retry = json(incident(key)).header("Idempotency-Key", idempotencyKey).post(INCIDENTS, "demo");
        }
        retry.then().statusCode(201).header("Idempotent-Replayed", nullValue());
        json(incident(key)).header("Idempotency-Key", idempotencyKey).post(INCIDENTS, "demo").then()
                .statusCode(201).header("Idempotent-Replayed", "?1");
        assertEquals(1, Sql.count("SELECT count(*) FROM incident WHERE incident_key = ?", key));
    }

    /**
     * Drops the service's connections and sends {@code request}, until the request meets a dropped one: a thread of
     * the service's own (the audit sequencer, the queue of refusals' entries) may meet them first, and the pool
     * replaces them before the request comes.
     */
    private static Response firstInOutage(Supplier<Response> request) throws SQLException {
        Response response = null;
        for (int drops = 0; drops < 10; drops++) {
            dropConnections();
            response = request.get();
            if (response.statusCode() == 503) {
                return response;
            }
        }
        return response;
    }

    private static String fresh(AtomicReference<String> sent) {
        sent.set(Evidence.uniqueKey());
        return sent.get();
    }

    private static void dropConnections() throws SQLException {
        api().get(INCIDENTS, "demo").then().statusCode(200);
        long dropped = Sql.count("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                + "WHERE datname = current_database() AND pid <> pg_backend_pid()");
        assertTrue(dropped > 0, "the service held no connection to drop");
    }
}
