package dev.evidencestore.audit;

import dev.evidencestore.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.evidencestore.audit.AuditTrail.aliceJson;
import static dev.evidencestore.audit.AuditTrail.newWorkspace;
import static dev.evidencestore.support.Api.incident;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With every database connection taken, writes and refused attempts keep coming: no write is acknowledged (2xx)
 * without its entry, refusals are answered without a connection of their own, and once connections are free every
 * request has its entry, one of its own or a count in an aggregate; none is lost.
 */
@QuarkusTest
@TestProfile(PoolExhaustionAuditTest.SmallPool.class)
class PoolExhaustionAuditTest {

    private static final int POOL = 4;
    private static final int WRITES = 6;
    private static final int REFUSALS = 6;

    public static class SmallPool implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.datasource.jdbc.max-size", String.valueOf(POOL),
                    "quarkus.datasource.jdbc.acquisition-timeout", "1S",
                    // a queue smaller than the refusals, so that some find it full and are aggregated
                    "evidence.audit.refusal-queue", "3",
                    "evidence.audit.unauthenticated-writes.window", "3s");
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Test
    void noWriteIsAcknowledgedWithoutItsEntryAndNoRefusalIsLost() throws Exception {
        String workspace = newWorkspace();
        String incidents = "/api/v1/workspaces/" + workspace + "/incidents";
        Instant start = Instant.now();
        List<Future<Response>> writes = new ArrayList<>();
        List<Future<Response>> refusals = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(WRITES + REFUSALS);
        List<Connection> held = new ArrayList<>();
        try {
            for (int i = 0; i < POOL; i++) {
                held.add(dataSource.getConnection());
            }
            for (int i = 0; i < WRITES; i++) {
                String key = "EXH-" + i;
                writes.add(clients.submit(() -> aliceJson(incident(key)).post(incidents)));
            }
            for (int i = 0; i < REFUSALS; i++) {
                String key = "ANON-" + i;
                refusals.add(clients.submit(() -> RestAssured.given().contentType(ContentType.JSON)
                        .body(incident(key)).post(incidents)));
            }
            // refusals are answered while the pool has nothing to give: their entries wait in memory
            for (Future<Response> refusal : refusals) {
                assertEquals(401, refusal.get(30, TimeUnit.SECONDS).statusCode());
            }
        } finally {
            for (Connection connection : held) {
                connection.close();
            }
        }
        Map<String, Integer> answered = new HashMap<>();
        for (Future<Response> write : writes) {
            Response response = write.get(30, TimeUnit.SECONDS);
            answered.merge("alice " + response.statusCode(), 1, Integer::sum);
            if (response.statusCode() / 100 == 2) {
                assertEquals(201, response.statusCode());
            } else {
                assertEquals(503, response.statusCode(), response.asString());
            }
        }
        clients.shutdown();
        answered.put("anonymous 401", REFUSALS);
        Response after = aliceJson(incident("EXH-99")).post(incidents);
        assertEquals(201, after.statusCode(), after.asString());
        answered.merge("alice 201", 1, Integer::sum);

        // every 2xx has its entry, with what it created; every refused write left nothing but its entry
        List<Map<String, Object>> entries = AuditTrail.entries(workspace);
        for (int i = 0; i < WRITES; i++) {
            String target = incidents + "/EXH-" + i;
            long created = Sql.count("SELECT count(*) FROM incident WHERE workspace = ? AND incident_key = ?", workspace,
                    "EXH-" + i);
            long recorded = entries.stream().filter(e -> target.equals(e.get("target"))
                    && Integer.valueOf(201).equals(e.get("status"))).count();
            assertEquals(created, recorded, "EXH-" + i + " was created if and only if its entry was written");
        }
        Map<String, Integer> own = new HashMap<>();
        for (Map<String, Object> entry : entries) {
            own.merge(entry.get("actor") + " " + entry.get("status"), 1, Integer::sum);
        }
        assertEquals(answered.get("alice 201"), own.get("alice 201"), "writes acknowledged and their entries");
        Map<String, Long> aggregated = awaitAggregates(start, answered, own);
        assertTrue(aggregated.values().stream().mapToLong(Long::longValue).sum() > 0,
                "the queue of three overflowed, and what found it full was aggregated: " + aggregated);
        assertTrue(folded() > 0, "the metric counts the refusals folded into aggregates");
    }

    /**
     * Waits until every request has its entry, its own or a count in an aggregate written since {@code start}, and
     * returns the aggregated counts by actor and status.
     */
    private static Map<String, Long> awaitAggregates(Instant start, Map<String, Integer> answered,
                                                     Map<String, Integer> own) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        Map<String, Long> aggregated = Map.of();
        Map<String, Long> recorded = Map.of();
        while (System.nanoTime() < deadline) {
            Sql.awaitAuditSequenced();
            aggregated = aggregatedSince(start);
            Map<String, Long> all = new HashMap<>(aggregated);
            own.forEach((key, count) -> all.merge(key, (long) count, Long::sum));
            recorded = all;
            Map<String, Long> expected = new HashMap<>();
            answered.forEach((key, count) -> expected.put(key, (long) count));
            if (recorded.equals(expected)) {
                return aggregated;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("answered " + answered + ", recorded " + recorded + " (aggregated " + aggregated
                + ")");
    }

    private static Map<String, Long> aggregatedSince(Instant start) throws Exception {
        Map<String, Long> counts = new HashMap<>();
        try (Connection connection = Sql.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT actor, status, aggregate FROM audit_entry WHERE aggregate IS NOT NULL AND at >= ?")) {
            select.setObject(1, start.atOffset(ZoneOffset.UTC));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    counts.merge(rows.getString("actor") + " " + rows.getInt("status"),
                            new JsonPath(rows.getString("aggregate")).getLong("count"), Long::sum);
                }
            }
        }
        return counts;
    }

    private static double folded() {
        String metrics = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(line -> line.startsWith("evidence_audit_refusals_folded_total"))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1))).sum();
    }
}
