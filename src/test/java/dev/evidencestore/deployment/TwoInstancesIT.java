package dev.evidencestore.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two instances of the packaged jar on one PostgreSQL and one S3 API server (S3Proxy): nothing that must happen once
 * may depend on the memory of one process.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TwoInstancesIT {

    private static final String DATABASE = "evidence_it_" + System.getenv().getOrDefault("EVIDENCE_TEST_DB", "main");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ThrowawayKeys keys;
    private static String token;
    private static ServiceInstance a;
    private static ServiceInstance b;
    private static SharedBlobStore store;

    @BeforeAll
    static void startTwoInstances() throws Exception {
        TestDatabase.recreate(DATABASE);
        keys = new ThrowawayKeys(Path.of("target/it-keys"));
        token = keys.token("it-collector", "collector", "investigator", "reviewer", "reader");
        store = new SharedBlobStore();
        Map<String, String> shared = store.settings();
        a = instance("instance-a", 18571, shared).start();
        b = instance("instance-b", 18572, shared).start();
        a.awaitReady(Duration.ofSeconds(180));
        b.awaitReady(Duration.ofSeconds(180));
    }

    private static ServiceInstance instance(String name, int port, Map<String, String> storage) {
        // two roles, as production should run: the service cannot undo the write-once triggers
        Map<String, String> settings = ServiceInstance.settings(DATABASE, keys, "evidence-store.test/two-instances");
        settings.putAll(storage);
        return new ServiceInstance(name, port, settings);
    }

    @AfterAll
    static void stopInstances() throws InterruptedException {
        for (ServiceInstance instance : new ServiceInstance[] {a, b}) {
            if (instance != null) {
                instance.stop();
            }
        }
        if (store != null) {
            store.close();
        }
    }

    @Test
    @Order(1)
    void anUploadThroughOneIsReadableThroughTheOtherAtOnce() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(300_000);
        String digest = Evidence.digestOf(bytes);
        assertEquals(201, put(a, "/api/v1/blobs/" + digest, bytes).statusCode());
        HttpResponse<byte[]> read = HTTP.send(authorized(b, "/api/v1/blobs/" + digest).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, read.statusCode());
        assertArrayEquals(bytes, read.body());

        String key = createIncident(b);
        assertEquals(201, bind(b, key, "panel", digest).statusCode());
        HttpResponse<byte[]> content = HTTP.send(authorized(a, "/api/v1/artifacts/artifact:it:v1:" + key
                + ":panel/content").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, content.statusCode());
        assertArrayEquals(bytes, content.body());
    }

    @Test
    @Order(2)
    void concurrentBindsOfOneNameToTwoDigestsAcrossInstancesGiveExactlyOne201() throws Exception {
        String key = createIncident(a);
        byte[] first = Evidence.uniqueBytes(1000);
        byte[] second = Evidence.uniqueBytes(1000);
        put(a, "/api/v1/blobs/" + Evidence.digestOf(first), first);
        put(b, "/api/v1/blobs/" + Evidence.digestOf(second), second);
        int races = 20;
        for (int i = 0; i < races; i++) {
            String name = "race-" + i;
            List<Integer> statuses = Concurrent.run(
                    () -> bind(a, key, name, Evidence.digestOf(first)).statusCode(),
                    () -> bind(b, key, name, Evidence.digestOf(second)).statusCode());
            statuses.sort(Integer::compare);
            assertEquals(List.of(201, 409), statuses, name);
        }
        assertEquals(races, Sql.countIn(DATABASE, "SELECT count(*) FROM artifact a "
                + "JOIN incident i ON i.id = a.incident_id WHERE i.incident_key = ?", key));
    }

    @Test
    @Order(3)
    void theAuditChainStaysOneUnbrokenChainWhenBothInstancesWrite() throws Exception {
        List<Callable<String>> writes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            ServiceInstance target = i % 2 == 0 ? a : b;
            writes.add(() -> {
                HttpResponse<String> created = post(target, "/api/v1/workspaces/it/incidents",
                        incidentBody(Evidence.uniqueKey()));
                return created.statusCode() + " " + created.body();
            });
        }
        // 8 at once: even when one instance is slower and holds them all, one principal stays within its cap there
        for (String answer : Concurrent.all(writes, 8)) {
            assertTrue(answer.startsWith("201 "), answer);
        }
        JsonNode verdict = JSON.readTree(post(b, "/api/v1/audit/verify", "").body());
        assertTrue(verdict.path("intact").asBoolean(), verdict.toString());
        assertTrue(verdict.path("entries").asLong() > writes.size(), verdict.toString());
        // one statement, one snapshot: the verify request's own entry may be sequenced between two queries
        assertEquals(0, Sql.countIn(DATABASE, "SELECT max(seq) - count(DISTINCT seq) FROM audit_entry"),
                "seq has gaps");
        assertEquals(0, Sql.countIn(DATABASE, "SELECT count(*) - count(DISTINCT seq) FROM audit_entry"),
                "seq has repeats");
    }

    @Test
    @Order(4)
    void killingOneInstanceMidUploadLosesNothingAcknowledged() throws Exception {
        Map<String, byte[]> acknowledged = new ConcurrentHashMap<>();
        ExecutorService clients = Executors.newFixedThreadPool(4);
        CountDownLatch someAcknowledged = new CountDownLatch(30);
        List<Future<?>> running = new ArrayList<>();
        for (int client = 0; client < 4; client++) {
            running.add(clients.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    byte[] bytes = Evidence.uniqueBytes(i % 5 == 0 ? 4_000_000 : 20_000);
                    String digest = Evidence.digestOf(bytes);
                    try {
                        if (put(a, "/api/v1/blobs/" + digest, bytes).statusCode() == 201) {
                            acknowledged.put(digest, bytes);
                            someAcknowledged.countDown();
                        }
                    } catch (IOException | InterruptedException e) {
                        return; // the instance is gone
                    }
                }
            }));
        }
        someAcknowledged.await();
        a.kill();
        for (Future<?> client : running) {
            client.get();
        }
        clients.shutdown();
        for (Map.Entry<String, byte[]> blob : acknowledged.entrySet()) {
            HttpResponse<byte[]> read = HTTP.send(authorized(b, "/api/v1/blobs/" + blob.getKey()).GET().build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, read.statusCode(), blob.getKey());
            assertTrue(Arrays.equals(blob.getValue(), read.body()), blob.getKey() + " came back changed");
        }
        System.out.printf("two instances: %d uploads acknowledged before instance-a was killed, all read back "
                + "intact through instance-b%n", acknowledged.size());
    }

    private static String createIncident(ServiceInstance instance) throws Exception {
        String key = Evidence.uniqueKey();
        assertEquals(201, post(instance, "/api/v1/workspaces/it/incidents", incidentBody(key)).statusCode());
        return key;
    }

    private static String incidentBody(String key) {
        return "{\"key\":\"" + key + "\",\"title\":\"Two instances\",\"severity\":\"SEV-2\"}";
    }

    private static HttpResponse<String> bind(ServiceInstance instance, String key, String name, String digest)
            throws IOException, InterruptedException {
        return post(instance, "/api/v1/workspaces/it/incidents/" + key + "/artifacts", "{\"name\":\"" + name
                + "\",\"digest\":\"" + digest + "\",\"mediaType\":\"application/octet-stream\",\"source\":\"grafana\","
                + "\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}");
    }

    private static HttpResponse<String> post(ServiceInstance instance, String path, String json)
            throws IOException, InterruptedException {
        return HTTP.send(authorized(instance, path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> put(ServiceInstance instance, String path, byte[] bytes)
            throws IOException, InterruptedException {
        return HTTP.send(authorized(instance, path).header("Content-Type", "application/octet-stream")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(bytes)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder authorized(ServiceInstance instance, String path) {
        return HttpRequest.newBuilder(instance.uri(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token);
    }
}
