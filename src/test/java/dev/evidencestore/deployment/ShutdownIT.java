package dev.evidencestore.deployment;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The packaged service stopped (SIGTERM) in the middle of its background work: a scrub pass reading slowly through
 * the blobs, and audit entries just written, which the sequencer is numbering. Its work ends before the database
 * pool and Hibernate close, so the shutdown logs no error and no warning (bench/run.sh's logs had both: the scrub's
 * and the sequencer's transactions failed on a closed session).
 */
class ShutdownIT {

    private static final String DATABASE = "evidence_it_shutdown_"
            + System.getenv().getOrDefault("EVIDENCE_TEST_DB", "main");
    private static final Path LOG = Path.of("target/it-logs/shutdown.log");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final int BLOBS = 8;
    private static final int BLOB_SIZE = 128 * 1024;

    private static ServiceInstance service;
    private static String token;

    @BeforeAll
    static void start() throws Exception {
        TestDatabase.recreate(DATABASE);
        Files.deleteIfExists(LOG);
        ThrowawayKeys keys = new ThrowawayKeys(Path.of("target/it-keys-shutdown"));
        token = keys.token("it-shutdown", "collector", "investigator", "reader");
        Map<String, String> settings = ServiceInstance.settings(DATABASE, keys, "evidence-store.test/shutdown");
        settings.put("evidence.storage.backend", "filesystem");
        settings.put("evidence.storage.filesystem.path", Path.of("target/it-blobs-shutdown").toAbsolutePath()
                .toString());
        // a pass every 2 s that reads 64 KiB a second: the blobs below take it 16 s, so one is under way at the stop
        settings.put("evidence.scrub.interval", "2s");
        settings.put("evidence.scrub.rate", "64K");
        service = new ServiceInstance("shutdown", ServiceInstance.freePort(), settings).start();
        service.awaitReady(Duration.ofSeconds(180));
    }

    @AfterAll
    static void stop() throws InterruptedException {
        if (service != null) {
            service.stop();
        }
    }

    @Test
    void aStopInTheMiddleOfBackgroundWorkLogsNoErrorAndNoWarning() throws Exception {
        String key = Evidence.uniqueKey();
        expect(201, send("POST", "/api/v1/workspaces/shutdown/incidents", "application/json", Evidence.utf8(
                "{\"key\":\"" + key + "\",\"title\":\"Stopped mid-work\",\"severity\":\"SEV-3\"}")));
        for (int i = 0; i < BLOBS; i++) {
            upload(Evidence.uniqueBytes(BLOB_SIZE));
        }
        // the next pass finds the blobs and reads them at 64 KiB a second
        Thread.sleep(3_000);
        for (int i = 0; i < 20; i++) {
            bind(key, i, upload(Evidence.uniqueBytes(1024)));
        }
        long before = Files.size(LOG);
        int status = service.stop(Duration.ofSeconds(30));

        assertTrue(status == 0 || status == 143, "a clean exit, not " + status + "; see " + LOG);
        String shutdown = tail(before);
        assertTrue(shutdown.contains("the scrub pass was cut short by the shutdown"),
                "a pass was under way at the stop:\n" + shutdown);
        List<String> complaints = shutdown.lines().filter(line -> line.matches(".* (WARN|ERROR) +\\[.*")).toList();
        assertEquals(List.of(), complaints, "the shutdown's log:\n" + shutdown);
    }

    private static String upload(byte[] bytes) throws Exception {
        String digest = Evidence.digestOf(bytes);
        expect(201, send("PUT", "/api/v1/blobs/" + digest, "application/octet-stream", bytes));
        return digest;
    }

    private static void bind(String key, int i, String digest) throws Exception {
        expect(201, send("POST", "/api/v1/workspaces/shutdown/incidents/" + key + "/artifacts", "application/json",
                Evidence.utf8("{\"name\":\"capture-" + i + "\",\"digest\":\"" + digest + "\",\"mediaType\":"
                        + "\"application/octet-stream\",\"source\":\"grafana\",\"kind\":\"snapshot\","
                        + "\"capturedAt\":\"2026-06-18T09:00:00Z\"}")));
    }

    private static String tail(long from) throws IOException {
        try (RandomAccessFile log = new RandomAccessFile(LOG.toFile(), "r")) {
            byte[] bytes = new byte[(int) (log.length() - from)];
            log.seek(from);
            log.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }
    }

    private static void expect(int status, HttpResponse<String> response) {
        assertEquals(status, response.statusCode(), response.body());
    }

    private static HttpResponse<String> send(String method, String path, String type, byte[] body)
            throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(service.uri(path)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", type)
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
