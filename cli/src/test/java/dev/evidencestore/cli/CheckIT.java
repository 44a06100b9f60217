package dev.evidencestore.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * check and verify against the real service: one incident with an artifact verified, one never verified, one whose
 * stored bytes were damaged on disk and then verified; a postmortem text per citation status.
 */
class CheckIT {

    private static final String WORKSPACE = "cli-check";

    @TempDir
    static Path home;

    private static PackagedService service;
    private static CliUser alice;
    private static CliUser bob;
    private static String prefix;
    private static String goodDigest;

    @BeforeAll
    static void incident() throws Exception {
        service = PackagedService.shared();
        String incident = new ServiceApi(service, service.token("alice", "investigator", "reader"))
                .createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        prefix = "artifact:" + WORKSPACE + ":v1:" + incident + ":";
        alice = CliUser.of(home.resolve("alice"), service, WORKSPACE, "alice", "collector", "reader");
        bob = CliUser.of(home.resolve("bob"), service, WORKSPACE, "bob", "reviewer", "reader");
        for (String name : new String[] {"good", "never-verified", "damaged"}) {
            CliUser.Result pushed = alice.withInput(name + " " + UUID.randomUUID(), "push", "-", "-i", incident,
                    "--source", "exec", "--name", name);
            assertEquals(0, pushed.exit(), pushed.toString());
            if (name.equals("good")) {
                goodDigest = pushed.out().strip().split(" ")[1];
            }
        }
        assertEquals(0, bob.run("verify", prefix + "good").exit());
    }

    @Test
    void verifyRecordsAPassingVerificationAndChecksALocalCopy() throws Exception {
        Path copy = Files.writeString(home.resolve("copy.txt"), "not the same bytes");
        CliUser.Result same = bob.run("verify", prefix + "good");
        assertEquals(0, same.exit(), same.toString());
        assertTrue(same.out().startsWith("verified " + prefix + "good " + goodDigest + " by bob at "), same.out());
        CliUser.Result other = bob.run("verify", prefix + "good", "--file", copy.toString());
        assertEquals(1, other.exit(), other.toString());
        assertTrue(other.out().startsWith("FAILED " + prefix + "good " + goodDigest + " by bob at "), other.out());
        assertTrue(other.out().contains("  local copy DIFFERS: " + copy + " is sha256:"), other.out());
    }

    @Test
    void aCollectorMayNotVerifyAndIsRefusedWithExit3() {
        CliUser.Result refused = alice.run("verify", prefix + "good");
        assertEquals(3, refused.exit(), refused.toString());
        assertTrue(refused.err().contains("refused: 403 forbidden"), refused.err());
    }

    @Test
    void aTextWhoseCitationsAreAllOkPassesWithATable() throws Exception {
        Path text = Files.writeString(home.resolve("ok.md"), "# Review\n\nThe panel " + prefix + "good shows it ("
                + goodDigest + ").\n\nAgain: `" + prefix + "good`.\n");
        CliUser.Result result = alice.run("check", text.toString());
        assertEquals(0, result.exit(), result.toString());
        assertEquals(String.format("%-20s %6s %8s  %s%n", "STATUS", "LINE", "MENTIONS", "ID")
                + String.format("%-20s %6s %8s  %s%n", "ok", "3", "2", prefix + "good")
                + text + ": 1 citation, all ok\n", result.out());
    }

    @Test
    void anUnknownCitationFails() throws Exception {
        assertCheckFinds("unknown", prefix + "no-such-artifact");
    }

    @Test
    void anUnverifiedCitationFails() throws Exception {
        assertCheckFinds("unverified", prefix + "never-verified");
    }

    @Test
    void aCitationWithAnotherDigestFails() throws Exception {
        assertCheckFinds("digest-mismatch", prefix + "good sha256:" + "0".repeat(64));
    }

    @Test
    void aCitationWhoseLatestVerificationFailedFails() throws Exception {
        damage(prefix + "damaged");
        CliUser.Result verified = bob.run("verify", prefix + "damaged");
        assertEquals(1, verified.exit(), verified.toString());
        assertTrue(verified.out().startsWith("FAILED " + prefix + "damaged"), verified.out());
        assertCheckFinds("failed-verification", prefix + "damaged");
    }

    @Test
    void jsonPrintsTheServicesVerdictPerFile() throws Exception {
        Path text = Files.writeString(home.resolve("json.md"), "See " + prefix + "never-verified.\n");
        CliUser.Result result = alice.run("check", "--json", text.toString());
        assertEquals(1, result.exit(), result.toString());
        assertEquals("{\"file\":\"" + text + "\",\"verdict\":{\"ok\":false,\"checked\":1,\"mentions\":1,\"citations\":"
                + "[{\"id\":\"" + prefix + "never-verified\",\"line\":1,\"mentions\":1,\"status\":\"unverified\","
                + "\"digest\":" + Json.write(Json.read(alice.run("check", "--json", text.toString()).out())
                        .path("verdict").path("citations").get(0).path("digest")) + "}]}}\n", result.out());
    }

    private static void assertCheckFinds(String status, String citation) throws Exception {
        Path text = Files.writeString(home.resolve(status + ".md"), "Line one.\nIt rests on " + citation + ".\n");
        CliUser.Result result = alice.run("check", text.toString());
        assertEquals(1, result.exit(), result.toString());
        String id = citation.split(" ")[0];
        assertTrue(result.out().contains(String.format("%-20s %6s %8s  %s%n", status, "2", "1", id)), result.out());
        assertTrue(result.out().endsWith(text + ": 1 of 1 citation not ok\n"), result.out());
    }

    /** Flips a byte of the stored blob, as bit rot would. */
    private static void damage(String artifactId) throws Exception {
        String digest = new ServiceApi(service, service.token("alice", "reader")).get("/api/v1/artifacts/" + artifactId)
                .path("digest").asText();
        String hex = digest.substring("sha256:".length());
        Path blob = service.directory.resolve("blobs/sha256/" + hex.substring(0, 2) + "/" + hex);
        blob.toFile().setWritable(true);
        try (RandomAccessFile file = new RandomAccessFile(blob.toFile(), "rw")) {
            int first = file.read();
            file.seek(0);
            file.write(first ^ 1);
        }
    }
}
