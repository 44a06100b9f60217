package dev.evidencestore.cli;

import dev.evidencestore.verify.Ed25519Keys;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * bundle download and bundle verify on a real bundle: an incident with an artifact, a finding on it accepted by a
 * second person, so that the bundle carries a signed statement, its log entry, its inclusion proof and a checkpoint.
 */
class BundleIT {

    private static final String WORKSPACE = "cli-bundle";

    @TempDir
    static Path home;

    private static PackagedService service;
    private static Path bundle;

    @BeforeAll
    static void acceptedFinding() throws Exception {
        service = PackagedService.shared();
        ServiceApi aliceApi = new ServiceApi(service, service.token("alice", "collector", "investigator", "reader"));
        ServiceApi bobApi = new ServiceApi(service, service.token("bob", "reviewer", "reader"));
        String incident = aliceApi.createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        CliUser alice = CliUser.of(home.resolve("alice"), service, WORKSPACE, "alice", "collector", "investigator",
                "reader");
        CliUser bob = CliUser.of(home.resolve("bob"), service, WORKSPACE, "bob", "reviewer", "reader");
        String artifact = "artifact:" + WORKSPACE + ":v1:" + incident + ":queue-depth";
        assertEquals(0, alice.withInput("{\"queue\":" + UUID.randomUUID().hashCode() + "}", "push", "-", "-i",
                incident, "--source", "grafana", "--name", "queue-depth", "--media-type", "application/json").exit());
        aliceApi.post("/api/v1/workspaces/" + WORKSPACE + "/incidents/" + incident + "/findings",
                "{\"name\":\"queue-after-deploy\",\"kind\":\"supporting\",\"statement\":\"The queue rose.\","
                        + "\"artifactIds\":[\"" + artifact + "\"]}", 201);
        assertEquals(0, bob.run("verify", artifact).exit());
        bobApi.post("/api/v1/findings/finding:" + WORKSPACE + ":v1:" + incident + ":queue-after-deploy/reviews",
                "{\"decision\":\"accepted\",\"note\":\"Checked.\"}", 201);
        bundle = home.resolve("evidence.zip");
        CliUser.Result downloaded = alice.run("bundle", "download", "-i", incident, "-o", bundle.toString());
        assertEquals(0, downloaded.exit(), downloaded.toString());
        assertEquals(bundle + " " + Files.size(bundle) + " bytes\n", downloaded.out());
    }

    @Test
    void aRealBundlePassesEveryCheckOffline() {
        CliUser.Result result = new CliUser(home.resolve("offline")).run("bundle", "verify", bundle.toString(), "--key",
                service.auditPublicKey.toString());
        assertEquals(0, result.exit(), result.toString());
        assertTrue(result.out().contains("PASS checkpoint/checkpoint.txt: signed by the given key"), result.out());
        assertTrue(result.out().contains("PASS manifest.json: SHA-256 as listed in SHA256SUMS"), result.out());
        assertTrue(result.out().lines().anyMatch(line -> line.startsWith("PASS statements/")), result.out());
        assertFalse(result.out().contains("FAIL"), result.out());
    }

    /** One byte changed in any file, at its start, middle or end, fails the bundle naming that file. */
    @Test
    void eachSingleByteFlipInAnyFileFailsNamingIt() throws Exception {
        List<String> names = entries(bundle);
        assertTrue(names.size() >= 8, names.toString());
        for (String name : names) {
            long size = entrySize(bundle, name);
            for (long offset : new long[] {0, size / 2, size - 1}) {
                Path flipped = home.resolve("flipped.zip");
                rewrite(bundle, flipped, name, offset);
                CliUser.Result result = new CliUser(home.resolve("offline")).run("bundle", "verify",
                        flipped.toString(), "--key", service.auditPublicKey.toString());
                assertEquals(1, result.exit(), name + " at " + offset + ": " + result);
                assertTrue(result.out().lines().anyMatch(line -> line.startsWith("FAIL ")
                        && line.contains(name.equals("SHA256SUMS") ? "" : name)), name + ": " + result.out());
            }
        }
    }

    @Test
    void anotherKeyFailsTheCheckpointAndTheStatements() throws Exception {
        Path other = Files.writeString(home.resolve("other.pem"),
                Ed25519Keys.publicPem(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic()));
        CliUser.Result result = new CliUser(home.resolve("offline")).run("bundle", "verify", bundle.toString(), "--key",
                other.toString());
        assertEquals(1, result.exit(), result.toString());
        assertTrue(result.out().contains("FAIL checkpoint/checkpoint.txt: no valid signature of a given key"),
                result.out());
    }

    @Test
    void withoutAKeyItIsAUsageError() {
        CliUser.Result result = new CliUser(home.resolve("offline")).run("bundle", "verify", bundle.toString());
        assertEquals(2, result.exit(), result.toString());
        assertTrue(result.err().contains("Missing required option: '--key=PUBLIC.pem'"), result.err());
    }

    private static List<String> entries(Path zip) throws IOException {
        List<String> names = new ArrayList<>();
        try (ZipFile file = new ZipFile(zip.toFile())) {
            file.stream().filter(entry -> !entry.isDirectory() && entry.getSize() > 0)
                    .forEach(entry -> names.add(entry.getName()));
        }
        return names;
    }

    private static long entrySize(Path zip, String name) throws IOException {
        try (ZipFile file = new ZipFile(zip.toFile())) {
            return file.getEntry(name).getSize();
        }
    }

    /** A copy of the zip with the byte at {@code offset} of entry {@code target} flipped, every other byte the same. */
    private static void rewrite(Path source, Path target, String name, long offset) throws IOException {
        try (ZipFile in = new ZipFile(source.toFile());
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            for (ZipEntry entry : in.stream().toList()) {
                out.putNextEntry(new ZipEntry(entry.getName()));
                try (InputStream bytes = in.getInputStream(entry)) {
                    byte[] content = bytes.readAllBytes();
                    if (entry.getName().equals(name)) {
                        content[(int) offset] ^= 0x01;
                    }
                    out.write(content);
                }
                out.closeEntry();
            }
        }
    }
}
