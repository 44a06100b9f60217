package dev.evidencestore.cli;

import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MerkleHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The witness against a fake log whose every root and proof is known: growth, re-signing, forks, shrinking. */
class WitnessTest {

    @TempDir
    Path home;

    private FakeSource server;
    private FakeLog log;

    @BeforeEach
    void log() throws Exception {
        server = new FakeSource();
        log = new FakeLog(server);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private CliUser.Result check() {
        return new CliUser(home).url(server.url()).run("log", "check", "--attempts", "1");
    }

    @Test
    void aLogThatGrowsConsistentlyIsRememberedAtEachSize() {
        log.serve(1, log.root(1));
        assertEquals(0, check().exit());
        log.serve(2, log.root(2));
        assertEquals(0, check().exit());
        log.serve(3, log.root(3));
        CliUser.Result third = check();
        assertEquals(0, third.exit(), third.toString());
        assertEquals("", third.err());
        WitnessRecord record = new WitnessState(home.resolve("state/evidence")).all().get(0);
        assertEquals(3, record.checkpoint().orElseThrow().size());
        assertEquals(server.url() + "/", record.service());
        assertEquals(FakeLog.ORIGIN, record.origin());
    }

    @Test
    void aForkOfTheRememberedTreeIsExit5() {
        String seen = log.serve(1, log.root(1));
        assertEquals(0, check().exit());
        String forked = log.serve(2, log.forkedRoot());
        CliUser.Result result = check();
        assertEquals(5, result.exit(), result.toString());
        assertTrue(result.err().contains("is not a consistent extension of the checkpoint this machine remembers:"
                + " its first 1 entries were rewritten (consistency proof from 1 to 2 leads to second root "
                + Base64.getEncoder().encodeToString(MerkleHash.node(log.root(1), MerkleHash.leaf("entry 1"
                        .getBytes(StandardCharsets.UTF_8)))) + ", not the expected "
                + Base64.getEncoder().encodeToString(log.forkedRoot()) + ")."), result.err());
        assertTrue(result.err().endsWith("\nremembered:\n" + seen + "served now:\n" + forked), result.err());
        assertEquals(1, new WitnessState(home.resolve("state/evidence")).all().get(0).checkpoint().orElseThrow()
                .size(), "the fork is not remembered");
    }

    @Test
    void anotherRootAtTheSameSizeIsExit5() {
        log.serve(2, log.root(2));
        assertEquals(0, check().exit());
        log.serve(2, log.forkedRoot());
        CliUser.Result result = check();
        assertEquals(5, result.exit());
        assertTrue(result.err().contains("the roots of two trees of 2 leaves differ"), result.err());
    }

    @Test
    void aLogThatShrankIsExit5() {
        log.serve(3, log.root(3));
        assertEquals(0, check().exit());
        log.serve(2, log.root(2));
        CliUser.Result result = check();
        assertEquals(5, result.exit());
        assertTrue(result.err().startsWith("evidence: the log " + FakeLog.ORIGIN + " at " + server.url() + "/ has 2"
                + " entries, fewer than the 3 this machine saw: entries were removed, or the database was restored"
                + " from a backup."), result.err());
    }

    @Test
    void aCheckpointSignedByAnotherKeyIsExit5EvenOnFirstUseWithTheRightKeyGiven() throws Exception {
        log.serveSignedBy(KeyPairGenerator.getInstance("Ed25519").generateKeyPair(), 1);
        Path pinned = Files.writeString(home.resolve("log.pem"),
                Ed25519Keys.publicPem(log.key.getPublic()));
        CliUser.Result result = new CliUser(home).url(server.url()).run("log", "check", "--key", pinned.toString());
        assertEquals(5, result.exit(), result.toString());
        assertTrue(result.err().contains("is not signed by the pinned key"), result.err());
    }

    @Test
    void forgetKeepsTheKeyAndDropsTheCheckpoint() {
        log.serve(3, log.root(3));
        assertEquals(0, check().exit());
        log.serve(2, log.root(2));
        assertEquals(5, check().exit());
        CliUser.Result forgot = new CliUser(home).run("log", "forget", "--url", server.url().toString(), "--origin",
                FakeLog.ORIGIN);
        assertEquals("forgot the checkpoint of " + FakeLog.ORIGIN + " at " + server.url() + "/; the next command"
                + " remembers the one the service serves then\n", forgot.out());
        CliUser.Result after = check();
        assertEquals(0, after.exit(), after.toString());
        assertEquals("", after.err(), "the key stays pinned: no first-use notice");
    }
}
