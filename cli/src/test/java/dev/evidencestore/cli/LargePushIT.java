package dev.evidencestore.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 1 GiB stream pushed from standard input by the shaded jar in a JVM of its own with a 64 MiB heap: generated as it
 * is written, never stored by the test, so only the CLI's temporary copy and the service's blob hold it.
 */
class LargePushIT {

    private static final long SIZE = 1L << 30;
    private static final Path CLI_JAR = Path.of(System.getProperty("evidence.cli.jar", "target/evidence-cli.jar"));

    @TempDir
    Path home;

    @Test
    void aGibibyteFromStandardInputGoesThroughA64MiBHeap() throws Exception {
        PackagedService service = PackagedService.shared();
        ServiceApi alice = new ServiceApi(service, service.token("alice", "collector", "investigator", "reader"));
        String incident = alice.createIncident("cli-large", ServiceApi.newIncidentKey());
        Path token = Files.writeString(home.resolve("token"), service.token("alice", "collector", "reader"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx64m", "-jar", CLI_JAR.toAbsolutePath().toString(), "push", "-", "--name", "heap-dump",
                "--incident", incident, "--source", "exec"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(home.resolve("err.txt").toFile())
                .redirectOutput(home.resolve("out.txt").toFile());
        builder.environment().putAll(Map.of("EVIDENCE_URL", service.url().toString(),
                "EVIDENCE_WORKSPACE", "cli-large", "EVIDENCE_TOKEN_FILE", token.toString(),
                "XDG_STATE_HOME", home.resolve("state").toString(), "XDG_CONFIG_HOME", home.resolve("config").toString(),
                "TMPDIR", home.toString()));
        builder.environment().remove("EVIDENCE_TOKEN");
        Process cli = builder.start();
        String digest;
        try (OutputStream stdin = cli.getOutputStream()) {
            digest = writeGenerated(stdin);
        }
        assertTrue(cli.waitFor(5, TimeUnit.MINUTES), "the push finished within 5 minutes");
        String err = Files.readString(home.resolve("err.txt"), StandardCharsets.UTF_8);
        assertEquals(0, cli.exitValue(), err);
        assertEquals("artifact:cli-large:v1:" + incident + ":heap-dump " + digest + "\n",
                Files.readString(home.resolve("out.txt"), StandardCharsets.UTF_8));
        assertEquals(SIZE, alice.get("/api/v1/artifacts/artifact:cli-large:v1:" + incident + ":heap-dump")
                .path("size").asLong());
    }

    /** 1 GiB of pseudo-random bytes, 1 MiB at a time; returns their digest. */
    private static String writeGenerated(OutputStream out) throws IOException {
        MessageDigest sha256 = HashedFile.sha256();
        byte[] chunk = new byte[1 << 20];
        SplittableRandom random = new SplittableRandom(1423);
        for (long written = 0; written < SIZE; written += chunk.length) {
            for (int i = 0; i < chunk.length; i += 8) {
                long value = random.nextLong();
                for (int b = 0; b < 8; b++) {
                    chunk[i + b] = (byte) (value >>> (8 * b));
                }
            }
            sha256.update(chunk);
            out.write(chunk);
        }
        return "sha256:" + HexFormat.of().formatHex(sha256.digest());
    }
}
