package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The witness against a service of its own, whose log these tests damage as whoever can write its database could:
 * a checkpoint re-signed with a foreign key, then a fork (an entry rewritten, the tree rebuilt over it, and a new
 * checkpoint signed with the service's own key, so that only the consistency proof can tell). Ordered: the fork
 * is for ever.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class WitnessIT {

    private static final String WORKSPACE = "cli-witness";

    @TempDir
    static Path home;

    private static PackagedService service;
    private static ServiceApi alice;
    private static ServiceApi bob;

    @BeforeAll
    static void service() {
        service = PackagedService.start("witness");
        alice = new ServiceApi(service, service.token("alice", "collector", "investigator", "reader"));
        bob = new ServiceApi(service, service.token("bob", "reviewer", "reader"));
    }

    @AfterAll
    static void stop() {
        if (service != null) {
            service.stop();
        }
    }

    private static CliUser user(String name) {
        return CliUser.of(home.resolve(name), service, WORKSPACE, "alice", "collector", "investigator", "reader");
    }

    /** A write, then a checkpoint over it, so that the log grows between two commands. */
    private static JsonNode grow() {
        alice.createIncident(WORKSPACE, ServiceApi.newIncidentKey());
        return bob.post("/api/v1/audit/checkpoints", null, 201);
    }

    @Test
    @Order(1)
    void theFirstUsePinsTheListedKeyAndSaysSoThenStaysQuietWhileTheLogGrows() throws Exception {
        grow();
        CliUser carol = user("carol");
        CliUser.Result first = carol.run("log", "check");
        assertEquals(0, first.exit(), first.toString());
        String verifierKey = NoteKey.of(service.origin, service.auditKey()).verifierKey();
        assertEquals("evidence: first use of the log " + service.origin + " at " + service.url() + "/: pinned the key"
                + " it lists, " + verifierKey + ". Compare it with the key your operator published; to pin that one"
                + " instead, run: evidence log pin --url " + service.url() + "/ --origin " + service.origin
                + " --key PUBLIC.pem\n", first.err());
        long size = grow().path("treeSize").asLong();
        CliUser.Result second = carol.run("log", "check");
        assertEquals(0, second.exit(), second.toString());
        assertEquals("", second.err());
        CliUser.Result status = carol.run("log", "status");
        assertEquals(0, status.exit());
        String[] lines = status.out().split("\n");
        assertEquals(service.url() + "/ " + service.origin, lines[0]);
        assertTrue(lines[1].startsWith("  key:        " + NoteKey.of(service.origin, service.auditKey()).keyIdHex()
                + " (pinned on first use "), lines[1]);
        assertTrue(lines[2].startsWith("  checkpoint: " + size + " entries, root "), lines[2]);
    }

    @Test
    @Order(2)
    void aKeyGivenWithKeyIsPinnedAndAnotherKeyLaterIsExit5() throws Exception {
        CliUser dave = user("dave");
        CliUser.Result pinned = dave.run("log", "check", "--key", service.auditPublicKey.toString());
        assertEquals(0, pinned.exit(), pinned.toString());
        assertTrue(pinned.err().startsWith("evidence: pinned the key given with --key ("), pinned.err());
        Path other = Files.writeString(home.resolve("other.pem"),
                Ed25519Keys.publicPem(KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic()));
        CliUser.Result mismatch = dave.run("log", "check", "--key", other.toString());
        assertEquals(5, mismatch.exit(), mismatch.toString());
        assertTrue(mismatch.err().contains(") is not the key pinned for " + service.origin), mismatch.err());
    }

    /** The trust issue's attack: the latest checkpoint re-signed with a key of the attacker's own. */
    @Test
    @Order(3)
    void aCheckpointReSignedWithAForeignKeyIsExit5OnTheNextCommand() throws Exception {
        CliUser erin = user("erin");
        assertEquals(0, erin.run("log", "check").exit());
        String remembered = latestNote();
        KeyPair foreign = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String resigned = SignedNote.sign(SignedNote.parse(remembered).body(), service.origin, foreign.getPrivate());
        tamper("UPDATE audit_tree_checkpoint SET note = ?, key_id = ? WHERE id = (SELECT max(id) FROM"
                + " audit_tree_checkpoint)", resigned, NoteKey.of(service.origin, foreign.getPublic()).keyIdHex());
        try {
            CliUser.Result result = erin.withInput("x", "push", "-", "-i", "INC-1", "--source", "exec", "--name", "x");
            assertEquals(5, result.exit(), result.toString());
            assertEquals("", result.out());
            assertTrue(result.err().startsWith("evidence: the latest checkpoint of " + service.origin + " at "
                    + service.url() + "/ is not signed by the pinned key "
                    + NoteKey.of(service.origin, service.auditKey()).keyIdHex()
                    + ": the log was re-signed with another key.\nserved now:\n" + resigned + "remembered:\n"
                    + remembered), result.err());
        } finally {
            tamper("UPDATE audit_tree_checkpoint SET note = ?, key_id = ? WHERE note = ?", remembered,
                    NoteKey.of(service.origin, service.auditKey()).keyIdHex(), resigned);
        }
        assertEquals(0, erin.run("log", "check").exit());
    }

    /**
     * A fork signed with the service's own key: the first entry rewritten, every stored subtree over it rebuilt,
     * and a fresh checkpoint signed by the service over the rebuilt tree. Its signature is good; only the
     * consistency proof from the checkpoint a witness remembers can tell.
     */
    @Test
    @Order(4)
    void aForkedLogSignedWithTheServicesOwnKeyIsExit5WithBothCheckpoints() throws Exception {
        CliUser frank = user("frank");
        assertEquals(0, frank.run("log", "check").exit());
        String remembered = latestNote();
        rewriteFirstEntryAndRebuildTheTree();
        grow();
        String forked = latestNote();
        CliUser.Result result = frank.run("check", Files.writeString(home.resolve("pm.md"), "No citations.\n")
                .toString());
        assertEquals(5, result.exit(), result.toString());
        assertTrue(result.err().startsWith("evidence: the log " + service.origin + " at " + service.url() + "/ is not"
                + " a consistent extension of the checkpoint this machine remembers: its first "
                + SignedNote.parse(remembered).body().split("\n")[1] + " entries were rewritten ("), result.err());
        assertTrue(result.err().endsWith("\nremembered:\n" + remembered + "served now:\n" + forked), result.err());
        CliUser newcomer = user("grace");
        CliUser.Result fresh = newcomer.run("log", "check");
        assertEquals(0, fresh.exit(), "a witness that never saw the old log cannot tell: " + fresh);
        assertFalse(fresh.err().contains("not a consistent extension"));
    }

    private static String latestNote() throws Exception {
        try (Connection connection = service.connect(); Statement sql = connection.createStatement();
             ResultSet row = sql.executeQuery("SELECT note FROM audit_tree_checkpoint ORDER BY id DESC LIMIT 1")) {
            row.next();
            return row.getString(1);
        }
    }

    private static void tamper(String update, Object... parameters) throws Exception {
        try (Connection connection = service.connect(); Statement session = connection.createStatement()) {
            session.execute("SET session_replication_role = replica");
            try (PreparedStatement statement = connection.prepareStatement(update)) {
                for (int i = 0; i < parameters.length; i++) {
                    statement.setObject(i + 1, parameters[i]);
                }
                assertEquals(1, statement.executeUpdate(), update);
            }
        }
    }

    /** Entry 1 gets another actor; leaf 0 and every stored node on the tree's left edge are recomputed. */
    private static void rewriteFirstEntryAndRebuildTheTree() throws Exception {
        String leaf = new String(alice.getBytes("/api/v1/audit/entries/0"), StandardCharsets.UTF_8);
        String actor = Json.read(leaf).path("actor").asText();
        String rewritten = leaf.replace("\"actor\":\"" + actor + "\"", "\"actor\":\"mallory\"");
        assertFalse(rewritten.equals(leaf), leaf);
        try (Connection connection = service.connect(); Statement sql = connection.createStatement()) {
            sql.execute("SET session_replication_role = replica");
            sql.execute("UPDATE audit_entry SET actor = 'mallory' WHERE seq = 1");
            Map<String, byte[]> nodes = new HashMap<>();
            try (ResultSet rows = sql.executeQuery("SELECT level, idx, hash FROM audit_tree_node WHERE idx <= 1")) {
                while (rows.next()) {
                    nodes.put(rows.getInt(1) + "/" + rows.getLong(2), rows.getBytes(3));
                }
            }
            byte[] hash = MerkleHash.leaf(rewritten.getBytes(StandardCharsets.UTF_8));
            update(connection, 0, hash);
            for (int level = 1; nodes.containsKey(level + "/0"); level++) {
                hash = MerkleHash.node(hash, nodes.get((level - 1) + "/1"));
                update(connection, level, hash);
            }
        }
    }

    private static void update(Connection connection, int level, byte[] hash) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(
                "UPDATE audit_tree_node SET hash = ? WHERE level = ? AND idx = 0")) {
            statement.setBytes(1, hash);
            statement.setInt(2, level);
            assertEquals(1, statement.executeUpdate());
        }
    }
}
