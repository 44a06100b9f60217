package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** push against the real packaged service: what it prints, its exit codes, and its retries through a cut proxy. */
class PushIT {

    private static final String WORKSPACE = "cli-push";

    private static PackagedService service;
    private static ServiceApi alice;

    @TempDir
    Path home;

    @BeforeAll
    static void service() {
        service = PackagedService.shared();
        alice = new ServiceApi(service, service.token("alice", "collector", "investigator", "reader"));
    }

    private CliUser user() {
        return CliUser.of(home, service, WORKSPACE, "alice", "collector", "investigator", "reader");
    }

    @Test
    void pushesAFileAndPrintsItsIdAndDigest() throws Exception {
        String incident = alice.createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        Path file = Files.writeString(home.resolve("Grafana Checkout.json"), "{\"panel\":\"" + UUID.randomUUID() + "\"}");
        CliUser.Result result = user().run("push", file.toString(), "--incident", incident, "--source", "grafana",
                "--capture", "window=2026-06-18T08:40:00Z/2026-06-18T10:20:00Z");
        String id = "artifact:" + WORKSPACE + ":v1:" + incident + ":grafana-checkout";
        assertEquals(0, result.exit(), result.toString());
        assertEquals(id + " " + digest(Files.readAllBytes(file)) + "\n", result.out());
        JsonNode artifact = alice.get("/api/v1/artifacts/" + id);
        assertEquals("application/json", artifact.path("mediaType").asText());
        assertEquals("evidence-cli 0.1.0", artifact.path("capture").path("collector").asText());
        assertEquals("it-host", artifact.path("capture").path("host").asText());
        assertEquals("2026-06-18T08:40:00Z/2026-06-18T10:20:00Z", artifact.path("capture").path("window").asText());
    }

    @Test
    void anotherDigestUnderATakenNameIsRefusedWithExit3AndTheProblemsDetail() {
        String incident = alice.createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        assertEquals(0, user().withInput("first " + UUID.randomUUID(), "push", "-", "-i", incident, "--source", "exec",
                "--name", "notes").exit());
        CliUser.Result second = user().withInput("second " + UUID.randomUUID(), "push", "-", "-i", incident, "--source",
                "exec", "--name", "notes");
        assertEquals(3, second.exit(), second.toString());
        assertEquals("", second.out());
        assertTrue(second.err().contains("evidence: standard input: refused: 409 artifact-name-taken: artifact:"
                + WORKSPACE + ":v1:" + incident + ":notes is bound to sha256:"), second.err());
    }

    @Test
    void anUnknownIncidentIsRefusedWithExit3() {
        CliUser.Result result = user().withInput("x", "push", "-", "-i", "INC-999999999", "--source", "exec", "--name", "x");
        assertEquals(3, result.exit(), result.toString());
        assertTrue(result.err().contains("refused: 404 not-found"), result.err());
    }

    @Test
    void aServiceThatIsNotThereIsUnavailableWithExit4AfterItsAttempts() {
        CliUser.Result result = user().url(URI.create("http://127.0.0.1:1")).withInput("x", "push", "-", "-i",
                "INC-1", "--source", "exec", "--name", "x", "--attempts", "2");
        assertEquals(4, result.exit(), result.toString());
        assertTrue(result.err().contains("(attempt 2 of 2)"), result.err());
        assertTrue(result.err().contains("GET api/v1/audit/checkpoint failed 2 times; the last: the connection failed"),
                result.err());
    }

    @Test
    void severalFilesGoInOneBatchUploadWhichTheServiceOffers() throws Exception {
        String incident = alice.createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        List<String> names = List.of("one", "two", "three", "four");
        StringBuilder expected = new StringBuilder();
        String[] arguments = new String[names.size() + 7];
        for (int i = 0; i < names.size(); i++) {
            Path file = Files.writeString(home.resolve(names.get(i) + ".txt"), names.get(i) + " " + UUID.randomUUID());
            arguments[i] = file.toString();
            expected.append("artifact:" + WORKSPACE + ":v1:" + incident + ":" + names.get(i) + " "
                    + digest(Files.readAllBytes(file)) + "\n");
        }
        System.arraycopy(new String[] {"-i", incident, "--source", "exec", "--parallel", "3", "--json"}, 0, arguments,
                names.size(), 7);
        String[] command = new String[arguments.length + 1];
        command[0] = "push";
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        CliUser.Result result = user().run(command);
        assertEquals(0, result.exit(), result.toString());
        StringBuilder printed = new StringBuilder();
        for (String line : result.out().split("\n")) {
            JsonNode artifact = Json.read(line);
            printed.append(artifact.path("id").asText() + " " + artifact.path("digest").asText() + "\n");
            assertEquals(201, artifact.path("status").asInt(), line);
        }
        assertEquals(expected.toString(), printed.toString());
        assertEquals(names.size(), executedWrites("POST", "/api/v1/workspaces/" + WORKSPACE + "/incidents/" + incident
                + "/artifact-batches"), "one request, and one audit entry per artifact it bound");
    }

    /** The upload's connection is cut after 64 KiB of its 1 MiB body; the retry stores the blob, once. */
    @Test
    void anUploadCutMidwayIsRetriedIntoOneBlobOneArtifactAndOneExecutedWrite() throws Exception {
        String incident = alice.createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        byte[] bytes = new byte[1024 * 1024];
        new Random().nextBytes(bytes);
        Path file = Files.write(home.resolve("capture.bin"), bytes);
        String digest = digest(bytes);
        try (CuttingProxy proxy = CuttingProxy.midRequest(service.url(), "PUT /api/v1/blobs/" + digest, 64 * 1024)) {
            CliUser.Result result = user().url(proxy.url()).run("push", file.toString(), "-i", incident, "--source",
                    "exec");
            assertTrue(proxy.hasCut(), "the proxy cut the upload");
            assertEquals(0, result.exit(), result.toString());
            assertTrue(result.err().contains("PUT api/v1/blobs/" + digest + ": the connection failed"), result.err());
        }
        assertEquals(1, count("SELECT count(*) FROM blob WHERE digest = ?", digest));
        assertEquals(1, count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                + "WHERE i.incident_key = ? AND a.name = 'capture'", incident));
        assertEquals(1, executedWrites("PUT", "/api/v1/blobs/" + digest));
        assertEquals(1, executedWrites("POST", "/api/v1/workspaces/" + WORKSPACE + "/incidents/" + incident
                + "/artifacts"));
    }

    /** The bind's answer is lost after the service bound the artifact; the retry is answered from its key. */
    @Test
    void aBindWhoseAnswerIsLostIsRetriedAndReplayedNotDoneTwice() throws Exception {
        String incident = alice.createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        String bindPath = "/api/v1/workspaces/" + WORKSPACE + "/incidents/" + incident + "/artifacts";
        Path file = Files.writeString(home.resolve("events.log"), "event " + UUID.randomUUID());
        try (CuttingProxy proxy = CuttingProxy.beforeAnswer(service.url(), "POST " + bindPath)) {
            CliUser.Result result = user().url(proxy.url()).run("push", file.toString(), "-i", incident, "--source",
                    "exec");
            assertTrue(proxy.hasCut(), "the proxy cut the answer");
            assertEquals(0, result.exit(), result.toString());
            assertEquals("artifact:" + WORKSPACE + ":v1:" + incident + ":events " + digest(Files.readAllBytes(file))
                    + "\n", result.out());
        }
        assertEquals(1, count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                + "WHERE i.incident_key = ?", incident));
        assertEquals(1, executedWrites("POST", bindPath));
        awaitCount(1, "SELECT count(*) FROM audit_entry WHERE method = 'POST' AND path = ? AND replayed", bindPath);
    }

    /** Entries that did the write: answered 2xx, not replayed. Waits for the sequencer (every 200 ms). */
    private static long executedWrites(String method, String path) throws Exception {
        Instant deadline = Instant.now().plusSeconds(10);
        long found = 0;
        while (Instant.now().isBefore(deadline)) {
            found = count("SELECT count(*) FROM (SELECT status, replayed FROM audit_entry WHERE method = ? AND path = ?"
                    + " UNION ALL SELECT status, replayed FROM audit_pending WHERE method = ? AND path = ?) e"
                    + " WHERE status BETWEEN 200 AND 299 AND NOT replayed", method, path, method, path);
            if (found > 0) {
                return found;
            }
            PackagedService.sleep(Duration.ofMillis(200));
        }
        return found;
    }

    private static void awaitCount(long expected, String sql, Object... parameters) throws Exception {
        Instant deadline = Instant.now().plusSeconds(10);
        while (count(sql, parameters) != expected && Instant.now().isBefore(deadline)) {
            PackagedService.sleep(Duration.ofMillis(200));
        }
        assertEquals(expected, count(sql, parameters), sql);
    }

    static long count(String sql, Object... parameters) throws SQLException {
        try (Connection connection = service.connect(); PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    static String digest(byte[] bytes) throws Exception {
        return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    }

    static String text(Path file) throws Exception {
        return Files.readString(file, StandardCharsets.UTF_8);
    }
}
