package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Retries and batches against a fake service: which answers are tried again, and with which key. */
class RetriesTest {

    private static final String INCIDENT = "/api/v1/workspaces/ws/incidents/INC-1";

    @TempDir
    Path home;

    private FakeSource service;

    @BeforeEach
    void service() throws Exception {
        service = new FakeSource();
        service.on("GET", "/api/v1/audit/checkpoint", request -> problem(404, "not-found", "no checkpoint yet"));
    }

    @AfterEach
    void stop() {
        service.close();
    }

    private CliUser user() {
        return new CliUser(home).url(service.url()).set("EVIDENCE_WORKSPACE", "ws").set("EVIDENCE_TOKEN", "t");
    }

    @Test
    void anUploadAnsweredBusyThenDroppedIsSentAgainWithItsOneKeyAndDigest() throws Exception {
        byte[] bytes = "panel export".getBytes(StandardCharsets.UTF_8);
        Path file = Files.write(home.resolve("panel.json"), bytes);
        String digest = PushIT.digest(bytes);
        AtomicInteger puts = new AtomicInteger();
        service.on("PUT", "/api/v1/blobs/" + digest, request -> switch (puts.incrementAndGet()) {
            case 1 -> problem(503, "service-busy", "too many uploads at once");
            case 2 -> null;
            default -> new FakeSource.Reply(201, "application/json", ("{\"digest\":\"" + digest + "\",\"size\":"
                    + bytes.length + "}").getBytes(StandardCharsets.UTF_8));
        });
        service.on("POST", INCIDENT + "/artifacts", request -> new FakeSource.Reply(201, "application/json",
                artifact("panel", digest).getBytes(StandardCharsets.UTF_8)));
        CliUser.Result result = user().run("push", file.toString(), "-i", "INC-1", "--source", "grafana");
        assertEquals(0, result.exit(), result.toString());
        assertEquals("artifact:ws:v1:INC-1:panel " + digest + "\n", result.out());
        List<FakeSource.Request> uploads = service.requests.stream().filter(r -> r.method().equals("PUT")).toList();
        assertEquals(3, uploads.size());
        String key = uploads.get(0).header("Idempotency-Key");
        assertTrue(key.matches("\"[0-9a-f-]{36}\""), key);
        for (FakeSource.Request upload : uploads) {
            assertEquals(key, upload.header("Idempotency-Key"));
            assertEquals("sha-256=:" + Base64.getEncoder().encodeToString(HashedFile.sha256().digest(bytes)) + ":",
                    upload.header("Content-Digest"));
            assertArrayEquals(bytes, upload.body());
        }
        assertTrue(result.err().contains("503 service-busy: too many uploads at once; retrying in "), result.err());
        assertTrue(result.err().contains("(attempt 3 of 6)"), result.err());
        FakeSource.Request bind = service.requests.get(service.requests.size() - 1);
        assertTrue(!bind.header("Idempotency-Key").equals(key), "the bind is another write, with another key");
        assertEquals("grafana", Json.read(bind.text()).path("source").asText());
    }

    @Test
    void aBindWhoseKeyIsStillInFlightIsAskedAgain() throws Exception {
        Path file = Files.writeString(home.resolve("notes.txt"), "notes");
        String digest = PushIT.digest("notes".getBytes(StandardCharsets.UTF_8));
        service.on("PUT", "/api/v1/blobs/" + digest, request -> FakeSource.Reply.json("{}"));
        AtomicInteger binds = new AtomicInteger();
        service.on("POST", INCIDENT + "/artifacts", request -> binds.incrementAndGet() == 1
                ? problem(409, "idempotency-key-in-flight", "still running")
                : FakeSource.Reply.json(artifact("notes", digest)));
        CliUser.Result result = user().run("push", file.toString(), "-i", "INC-1", "--source", "exec");
        assertEquals(0, result.exit(), result.toString());
        List<String> keys = service.requests.stream().filter(r -> r.method().equals("POST"))
                .map(r -> r.header("Idempotency-Key")).toList();
        assertEquals(2, keys.size());
        assertEquals(keys.get(0), keys.get(1));
    }

    @Test
    void aServerErrorIsNotSentAgainAndIsExit4() throws Exception {
        Path file = Files.writeString(home.resolve("notes.txt"), "notes");
        String digest = PushIT.digest("notes".getBytes(StandardCharsets.UTF_8));
        service.on("PUT", "/api/v1/blobs/" + digest, request -> problem(500, "internal-error", "a bug"));
        CliUser.Result result = user().run("push", file.toString(), "-i", "INC-1", "--source", "exec");
        assertEquals(4, result.exit(), result.toString());
        assertEquals(1, service.requests.stream().filter(r -> r.method().equals("PUT")).count());
        assertEquals("evidence: " + file + ": PUT api/v1/blobs/" + digest + " failed: 500 internal-error: a bug\n",
                result.err());
    }

    @Test
    void severalFilesGoInOneTarWhenTheContractOffersBatches() throws Exception {
        service.on("GET", "/q/openapi", request -> FakeSource.Reply.text("application/yaml",
                "paths:\n  /api/v1/workspaces/{workspace}/incidents/{key}/artifact-batches:\n    post: {}\n"));
        service.on("POST", INCIDENT + "/artifact-batches", request -> FakeSource.Reply.json("{\"results\":["
                + result("artifacts/two", "two", "sha256:" + "2".repeat(64), 200) + ","
                + result("artifacts/one", "one", "sha256:" + "1".repeat(64), 201) + "]}"));
        Path one = Files.writeString(home.resolve("one.txt"), "first");
        Path two = Files.writeString(home.resolve("two.json"), "{\"second\":true}");
        CliUser.Result result = user().run("push", one.toString(), two.toString(), "-i", "INC-1", "--source", "exec");
        assertEquals(0, result.exit(), result.toString());
        assertEquals("artifact:ws:v1:INC-1:one sha256:" + "1".repeat(64) + "\nartifact:ws:v1:INC-1:two sha256:"
                + "2".repeat(64) + "\n", result.out());
        FakeSource.Request batch = service.requests.get(service.requests.size() - 1);
        assertEquals("application/x-tar", batch.header("Content-Type"));
        assertTrue(batch.header("Idempotency-Key").startsWith("\""));
        assertEquals("sha-256=:" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
                .digest(batch.body())) + ":", batch.header("Content-Digest"), "the digest of the very bytes sent");
        List<String> names = new ArrayList<>();
        List<String> contents = new ArrayList<>();
        try (TarArchiveInputStream tar = new TarArchiveInputStream(new ByteArrayInputStream(batch.body()))) {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                names.add(entry.getName());
                contents.add(new String(tar.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        assertEquals(List.of("batch.json", "artifacts/one", "artifacts/two"), names);
        assertEquals(List.of("first", "{\"second\":true}"), contents.subList(1, 3));
        JsonNode manifest = Json.read(contents.get(0));
        assertTrue(manifest.isArray(), contents.get(0));
        assertEquals("artifacts/one", manifest.get(0).path("path").asText());
        assertEquals(PushIT.digest("first".getBytes(StandardCharsets.UTF_8)), manifest.get(0).path("digest").asText());
        assertEquals("application/json", manifest.get(1).path("mediaType").asText());
    }

    @Test
    void aBatchAnswered405FallsBackToOnePushPerFile() throws Exception {
        service.on("GET", "/q/openapi", request -> FakeSource.Reply.text("application/yaml",
                "/api/v1/workspaces/{workspace}/incidents/{key}/artifact-batches"));
        service.on("POST", INCIDENT + "/artifact-batches", request -> problem(405, "method-not-allowed", "no"));
        Path one = Files.writeString(home.resolve("one.txt"), "first");
        Path two = Files.writeString(home.resolve("two.txt"), "second");
        for (String name : List.of("one", "two")) {
            String digest = PushIT.digest((name.equals("one") ? "first" : "second").getBytes(StandardCharsets.UTF_8));
            service.on("PUT", "/api/v1/blobs/" + digest, request -> FakeSource.Reply.json("{}"));
        }
        AtomicInteger binds = new AtomicInteger();
        service.on("POST", INCIDENT + "/artifacts", request -> FakeSource.Reply.json(artifact(
                Json.read(request.text()).path("name").asText(), "sha256:" + binds.incrementAndGet())));
        CliUser.Result result = user().run("push", one.toString(), two.toString(), "-i", "INC-1", "--source", "exec");
        assertEquals(0, result.exit(), result.toString());
        assertEquals(2, binds.get());
        assertEquals(2, result.out().lines().count());
    }

    private static FakeSource.Reply problem(int status, String type, String detail) {
        return new FakeSource.Reply(status, "application/problem+json", ("{\"type\":\"https://evidence-store.dev/"
                + "problems/" + type + "\",\"title\":\"t\",\"status\":" + status + ",\"detail\":\"" + detail + "\"}")
                .getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void noBatchPushesOneFileAtATimeFromAServiceThatOffersBatches() throws Exception {
        service.on("GET", "/q/openapi", request -> FakeSource.Reply.text("application/yaml",
                "/api/v1/workspaces/{workspace}/incidents/{key}/artifact-batches"));
        AtomicInteger batches = new AtomicInteger();
        service.on("POST", INCIDENT + "/artifact-batches", request -> {
            batches.incrementAndGet();
            return problem(500, "internal-error", "not to be called");
        });
        Path one = Files.writeString(home.resolve("one.txt"), "first");
        Path two = Files.writeString(home.resolve("two.txt"), "second");
        for (String bytes : List.of("first", "second")) {
            service.on("PUT", "/api/v1/blobs/" + PushIT.digest(bytes.getBytes(StandardCharsets.UTF_8)),
                    request -> FakeSource.Reply.json("{}"));
        }
        AtomicInteger binds = new AtomicInteger();
        service.on("POST", INCIDENT + "/artifacts", request -> FakeSource.Reply.json(artifact(
                Json.read(request.text()).path("name").asText(), "sha256:" + binds.incrementAndGet())));
        CliUser.Result result = user().run("push", one.toString(), two.toString(), "-i", "INC-1", "--source", "exec",
                "--no-batch");
        assertEquals(0, result.exit(), result.toString());
        assertEquals(0, batches.get());
        assertEquals(2, binds.get());
    }

    @Test
    void anItemTheBatchRefusedExitsAsARefusalWithItsProblem() throws Exception {
        service.on("GET", "/q/openapi", request -> FakeSource.Reply.text("application/yaml",
                "/api/v1/workspaces/{workspace}/incidents/{key}/artifact-batches"));
        service.on("POST", INCIDENT + "/artifact-batches", request -> FakeSource.Reply.json("{\"results\":["
                + result("artifacts/one", "one", "sha256:" + "1".repeat(64), 201) + ",{\"path\":\"artifacts/two\","
                + "\"status\":409,\"problem\":{\"type\":\"https://evidence-store.dev/problems/artifact-name-taken\","
                + "\"title\":\"t\",\"status\":409,\"detail\":\"two is bound to other bytes\"}}]}"));
        Path one = Files.writeString(home.resolve("one.txt"), "first");
        Path two = Files.writeString(home.resolve("two.txt"), "second");
        CliUser.Result result = user().run("push", one.toString(), two.toString(), "-i", "INC-1", "--source", "exec");
        assertEquals(3, result.exit(), result.toString());
        assertTrue(result.out().startsWith("artifact:ws:v1:INC-1:one sha256:" + "1".repeat(64)), result.toString());
        assertTrue(result.err().contains("two is bound to other bytes"), result.toString());
    }

    private static String result(String path, String name, String digest, int status) {
        return "{\"path\":\"" + path + "\",\"id\":\"artifact:ws:v1:INC-1:" + name + "\",\"digest\":\"" + digest
                + "\",\"status\":" + status + "}";
    }

    private static String artifact(String name, String digest) {
        return "{\"id\":\"artifact:ws:v1:INC-1:" + name + "\",\"digest\":\"" + digest + "\"}";
    }
}
