package dev.evidencestore.deployment;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.TarBody;
import dev.evidencestore.support.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The training run of the JDK's AOT cache (JEP 483/514): the packaged jar runs from target/quarkus-app with
 * {@code -XX:AOTCacheOutput=app.aot} through a workload shaped like a day of use (the demo investigation loaded at
 * start, uploads and binds, reads of metadata and bytes, the evidence pages, postmortems, a bundle, verifications),
 * and on a clean exit the JVM writes {@code target/quarkus-app/app.aot}, which production loads with
 * {@code -XX:AOTCache=app.aot} (docs/operations.md). It asserts every answer, so it is also a black-box test of the
 * packaged service. A cache loads only in the JDK that wrote it; on a JDK before 25 this test is skipped and the
 * service starts without one.
 */
class AotTrainingIT {

    private static final String DATABASE = "evidence_it_aot_" + System.getenv().getOrDefault("EVIDENCE_TEST_DB", "main");
    private static final Path CACHE = ServiceInstance.APP.resolve("app.aot");
    private static final List<String> DEMO_ARTIFACTS = List.of("grafana-checkout", "github-deployment",
            "kubernetes-workers", "intercom-readiness");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /**
     * Classes loaded and linked, without the method profiles (JEP 515): the whole cache is resident from the start,
     * the profiles were 17 MB of it, and the JIT compiled no sooner for them in the benchmark (docs/operations.md).
     * Nor the JIT's call adapters: Temurin 25.0.3 failed to link four of them from the cache at every start and said
     * so in four warnings on the service's output; without them it starts as fast and says nothing.
     */
    private static final List<String> TRAINING_JVM = List.of("-XX:+UseSerialGC", "-XX:ReservedCodeCacheSize=40m",
            "-XX:AOTCacheOutput=app.aot", "-XX:+UnlockDiagnosticVMOptions", "-XX:-AOTRecordTraining",
            "-XX:-AOTAdapterCaching");

    private static final int LONG_ARTIFACTS = 200;
    private static final int BATCH_ITEMS = 400;
    private static final int READS_OF_THE_LONG_INVESTIGATION = 10;

    /** As production runs (tools/service.sh); AOTMode=on makes the JVM exit if it cannot use the cache. */
    private static final List<String> NEXT_START_JVM = List.of("-XX:+UseSerialGC", "-XX:ReservedCodeCacheSize=40m",
            "-XX:AOTCache=app.aot", "-XX:AOTMode=on");

    private static ServiceInstance service;
    private static Map<String, String> settings;
    private static String token;

    @BeforeAll
    static void startTraining() throws Exception {
        Assumptions.assumeTrue(Runtime.version().feature() >= 25, "the AOT cache is written by JDK 25 or later; "
                + "this is " + Runtime.version() + ", so the service will start without one");
        Files.deleteIfExists(CACHE);
        TestDatabase.recreate(DATABASE);
        ThrowawayKeys keys = new ThrowawayKeys(Path.of("target/it-keys-aot"));
        token = keys.token("aot-trainer", "collector", "investigator", "reviewer", "reader");
        settings = ServiceInstance.settings(DATABASE, keys, "evidence-store.test/aot-training");
        settings.put("evidence.storage.backend", "filesystem");
        settings.put("evidence.storage.filesystem.path", Path.of("target/it-blobs-aot").toAbsolutePath().toString());
        settings.put("evidence.demo.load", "true");
        settings.put("evidence.public-read-workspaces", "demo");
        settings.put("evidence.review.four-eyes", "false");
        service = new ServiceInstance("aot-training", ServiceInstance.freePort(), settings, TRAINING_JVM).start();
        service.awaitReady(Duration.ofSeconds(180));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (service != null) {
            service.stop(Duration.ofSeconds(10));
        }
    }

    @Test
    void aWorkloadLikeADayOfUseLeavesAnAotCacheForTheNextStart() throws Exception {
        for (int round = 0; round < 3; round++) {
            readTheDemo();
            recordAnInvestigation(round);
            pushABatch(round);
        }
        readALongInvestigation(recordALongInvestigation());
        // the JVM assembles the cache as it exits, in a child JVM of its own: that takes a while on 2 cores
        int status = service.stop(Duration.ofSeconds(300));
        // 143: the JVM ran its shutdown hooks after SIGTERM, and the cache is written in one of them
        assertTrue(status == 0 || status == 143, "a clean exit, not " + status + "; see target/it-logs/aot-training.log");
        assertTrue(Files.size(CACHE) > 10_000_000, "the cache holds the loaded classes: " + Files.size(CACHE));
        assertTheNextStartUsesTheCacheSilently();
    }

    private static void assertTheNextStartUsesTheCacheSilently() throws Exception {
        Path log = Path.of("target/it-logs/aot-next-start.log");
        Files.deleteIfExists(log);
        service = new ServiceInstance("aot-next-start", ServiceInstance.freePort(), settings, NEXT_START_JVM).start();
        service.awaitReady(Duration.ofSeconds(60));
        List<String> jvmWarnings = Files.readAllLines(log).stream().filter(line -> line.contains("[warning]")).toList();
        assertEquals(List.of(), jvmWarnings, "the JVM's warnings at a start with the cache");
    }

    private static void readTheDemo() throws Exception {
        String incident = "/workspaces/demo/incidents/INC-1423";
        for (String page : List.of("/", "/workspaces/demo", incident, "/findings/finding:demo:v1:INC-1423:"
                + "batch-size-change")) {
            expect(200, get(page, false));
        }
        for (String name : DEMO_ARTIFACTS) {
            String id = "artifact:demo:v1:INC-1423:" + name;
            expect(200, get("/artifacts/" + id, false));
            expect(200, get("/api/v1/artifacts/" + id, true));
            expect(200, get("/api/v1/artifacts/" + id + "/content", true));
        }
        expect(200, get("/api/v1" + incident + "/postmortem", true));
        expect(200, get("/api/v1" + incident + "/evidence-manifest", true));
        expect(200, get("/api/v1" + incident + "/evidence-bundle", true));
        expect(200, get("/api/v1/audit/checkpoints/latest", true));
        expect(200, get("/q/health/ready", false));
    }

    private static void recordAnInvestigation(int round) throws Exception {
        String key = Evidence.uniqueKey();
        expect(201, send("POST", "/api/v1/workspaces/training/incidents", "application/json", Evidence.utf8(
                "{\"key\":\"" + key + "\",\"title\":\"Training round " + round + "\",\"severity\":\"SEV-2\","
                        + "\"impactStart\":\"2026-06-18T09:00:00Z\"}")));
        for (int i = 0; i < 20; i++) {
            byte[] bytes = Evidence.uniqueBytes(i == 0 ? 4 * 1024 * 1024 : 10 * 1024);
            String digest = Evidence.digestOf(bytes);
            expect(201, send("PUT", "/api/v1/blobs/" + digest, "application/octet-stream", bytes));
            expect(201, send("POST", "/api/v1/workspaces/training/incidents/" + key + "/artifacts",
                    "application/json", Evidence.utf8("{\"name\":\"capture-" + i + "\",\"digest\":\"" + digest
                            + "\",\"mediaType\":\"application/octet-stream\",\"source\":\"grafana\",\"kind\":"
                            + "\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}")));
            String id = "artifact:training:v1:" + key + ":capture-" + i;
            expect(200, get("/api/v1/artifacts/" + id, true));
            expect(200, get("/api/v1/artifacts/" + id + "/content", true));
        }
        expect(201, send("POST", "/api/v1/artifacts/artifact:training:v1:" + key + ":capture-0/verifications",
                "application/json", Evidence.utf8("{}")));
        expect(200, get("/api/v1/workspaces/training/incidents/" + key + "/postmortem", true));
    }

    /**
     * What the CLI sends when it pushes a directory of evidence: one batch upload of small captures, a tar as GNU tar
     * writes it (a PAX header per entry). Trained, the classes of the tar parsing and the group binds are in the
     * cache, loaded and linked, so the first batch after a start does not load them.
     */
    private static void pushABatch(int round) throws Exception {
        String key = Evidence.uniqueKey();
        expect(201, send("POST", "/api/v1/workspaces/training/incidents", "application/json", Evidence.utf8(
                "{\"key\":\"" + key + "\",\"title\":\"Training batch " + round + "\",\"severity\":\"SEV-3\"}")));
        List<String> items = new ArrayList<>();
        List<byte[]> captures = new ArrayList<>();
        for (int i = 0; i < BATCH_ITEMS; i++) {
            captures.add(Evidence.uniqueBytes(10 * 1024));
            items.add(String.format("{\"path\":\"capture-%d.json\",\"name\":\"capture-%d\",\"digest\":\"%s\","
                    + "\"mediaType\":\"application/json\",\"source\":\"grafana\",\"kind\":\"snapshot\","
                    + "\"capturedAt\":\"2026-06-18T09:00:00Z\"}", i, i, Evidence.digestOf(captures.get(i))));
        }
        TarBody tar = new TarBody().withPaxTimes("1781773200.123456789")
                .add("batch.json", Evidence.utf8("[" + String.join(",", items) + "]"));
        for (int i = 0; i < BATCH_ITEMS; i++) {
            tar.add("capture-" + i + ".json", captures.get(i));
        }
        HttpResponse<byte[]> answer = send("POST", "/api/v1/workspaces/training/incidents/" + key
                + "/artifact-batches", "application/x-tar", tar.bytes());
        expect(200, answer);
        String results = new String(answer.body(), StandardCharsets.UTF_8);
        assertEquals(BATCH_ITEMS, results.split("\"status\":201", -1).length - 1, results);
    }

    /**
     * An incident the size of a long investigation, as bench/seed-incident.mjs builds it, so that the classes of its
     * pages' larger paths are in the cache too. (With the JIT's profiles in the cache, since left out, a postmortem of
     * 200 took 28-34 ms three seconds after the start when trained on the demo's four artifacts alone, 21-23 ms with
     * this.)
     */
    private static String recordALongInvestigation() throws Exception {
        String key = Evidence.uniqueKey();
        String incident = "/api/v1/workspaces/training/incidents/" + key;
        expect(201, send("POST", "/api/v1/workspaces/training/incidents", "application/json", Evidence.utf8(
                "{\"key\":\"" + key + "\",\"title\":\"A long investigation\",\"severity\":\"SEV-2\","
                        + "\"impactStart\":\"2026-06-18T09:00:00Z\",\"contributingFactors\":[\"Queue depth had no "
                        + "alert.\"]}")));
        for (int i = 0; i < LONG_ARTIFACTS; i++) {
            byte[] bytes = Evidence.uniqueBytes(16 * 1024);
            String digest = Evidence.digestOf(bytes);
            expect(201, send("PUT", "/api/v1/blobs/" + digest, "application/octet-stream", bytes));
            expect(201, send("POST", incident + "/artifacts", "application/json", Evidence.utf8("{\"name\":\""
                    + longName(i) + "\",\"digest\":\"" + digest + "\",\"mediaType\":\"application/json\","
                    + "\"source\":\"grafana\",\"kind\":\"snapshot\",\"capturedAt\":\"2026-06-18T09:00:00Z\"}")));
            expect(201, send("POST", "/api/v1/artifacts/" + longId(key, i) + "/verifications", "application/json",
                    Evidence.utf8("{\"digest\":\"" + digest + "\"}")));
        }
        for (int i = 0; i < LONG_ARTIFACTS / 2; i++) {
            expect(201, send("POST", incident + "/findings", "application/json", Evidence.utf8("{\"name\":\"finding-"
                    + i + "\",\"kind\":\"" + (i % 5 == 4 ? "negative" : "supporting") + "\",\"statement\":\"Queue "
                    + "depth on shard " + i + " rose after the deployment.\",\"artifactIds\":[\"" + longId(key, 2 * i)
                    + "\",\"" + longId(key, 2 * i + 1) + "\"]}")));
        }
        for (int i = 0; i < LONG_ARTIFACTS / 4; i++) {
            expect(201, send("POST", incident + "/timeline", "application/json", Evidence.utf8("{\"at\":\"2026-06-18T"
                    + "09:" + String.format("%02d", i) + ":00Z\",\"event\":\"Responders looked at shard " + i
                    + ".\",\"artifactIds\":[\"" + longId(key, i) + "\"]}")));
        }
        expect(201, send("PUT", incident + "/root-cause", "application/json", Evidence.utf8("{\"statement\":\"The "
                + "deployment raised the batch size.\",\"confidence\":\"high\",\"findingIds\":[\"finding:training:v1:"
                + key + ":finding-0\"]}")));
        expect(201, send("POST", incident + "/actions", "application/json", Evidence.utf8("{\"action\":\"Alert on "
                + "queue depth.\",\"owner\":\"Training Owner\",\"due\":\"2026-07-01\",\"status\":\"open\"}")));
        return incident;
    }

    /**
     * The long investigation's pages, ten times. The cache keeps the classes their paths load, not the JIT's profiles
     * (left out, above), so more rounds buy little: 200 instead of 10 added 10 classes of 16,000 (paths taken under
     * contention) for 15 seconds more of every build.
     */
    private static void readALongInvestigation(String incident) throws Exception {
        for (int i = 0; i < READS_OF_THE_LONG_INVESTIGATION; i++) {
            expect(200, get(incident + "/postmortem", true));
            expect(200, get(incident + "/evidence-manifest", true));
            if (i % 5 == 0) {
                expect(200, get(incident + "/evidence-bundle", true));
                expect(200, get(incident.substring("/api/v1".length()), true));
            }
        }
    }

    private static String longName(int i) {
        return "evidence-" + i;
    }

    private static String longId(String key, int i) {
        return "artifact:training:v1:" + key + ":" + longName(i);
    }

    private static void expect(int status, HttpResponse<byte[]> response) {
        assertEquals(status, response.statusCode(), () -> response.request().method() + " " + response.uri() + ": "
                + new String(response.body(), StandardCharsets.UTF_8));
    }

    private static HttpResponse<byte[]> get(String path, boolean authorized) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(60));
        if (authorized) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpResponse<byte[]> send(String method, String path, String type, byte[] body)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).header("Content-Type", type)
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }
}
