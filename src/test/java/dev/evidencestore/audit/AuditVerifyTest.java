package dev.evidencestore.audit;

import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.audit.AuditTrail.seq;
import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Verification re-walks the chain and names the exact entry changed behind the service's back. Every tampering is
 * undone in a finally block: the chain is shared by every test, and the tests after this one need it intact.
 */
@QuarkusTest
class AuditVerifyTest {

    private static final String VERIFY = "/api/v1/audit/verify";

    @BeforeEach
    void intactBefore() {
        // a checkpoint and entries to check, so that every row trigger below has a row to refuse
        as(Tokens.bob()).post("/api/v1/audit/checkpoints").then().statusCode(201);
        Map<String, Object> verdict = verify();
        assertEquals(true, verdict.get("intact"), "the chain must be intact before each test: " + verdict);
    }

    @Test
    void reportsAnIntactChain() throws Exception {
        Sql.awaitAuditSequenced();
        long length = Sql.count("SELECT max(seq) FROM audit_entry");
        long checkpoints = Sql.count("SELECT count(*) FROM audit_checkpoint")
                + Sql.count("SELECT count(*) FROM audit_tree_checkpoint");
        Map<String, Object> verdict = verify();
        Map<String, Object> expected = new HashMap<>();
        expected.put("intact", true);
        expected.put("entries", (int) length);
        expected.put("treeSize", (int) length);
        expected.put("rootHash", Base64.getEncoder().encodeToString(AuditTrail.naiveRoot(length)));
        expected.put("checkpoints", (int) checkpoints);
        // publishing is off in the default test profile: CheckpointPublishingTest and PublishedToS3Test turn it on
        expected.put("publishedCheckpoints", 0);
        expected.put("unpublishedCheckpoints", null);
        expected.put("firstBrokenSeq", null);
        expected.put("reason", null);
        assertEquals(expected, verdict);
    }

    @Test
    void findsTheExactEntryChangedBehindTheServicesBack() throws SQLException {
        Map<String, Object> original = tamperable();
        long seq = seq(original);
        Sql.tamper("UPDATE audit_entry SET actor = 'mallory' WHERE seq = ?", seq);
        try {
            Map<String, Object> verdict = verify();
            assertEquals(false, verdict.get("intact"));
            assertEquals(seq, ((Number) verdict.get("firstBrokenSeq")).longValue());
            assertEquals("entry " + seq + " does not hash to its entryHash: it was changed after it was written",
                    verdict.get("reason"));
        } finally {
            Sql.tamper("UPDATE audit_entry SET actor = ? WHERE seq = ?", original.get("actor"), seq);
        }
        assertEquals(true, verify().get("intact"));
    }

    @Test
    void findsAnEntryRewrittenWithItsHashRecomputed() throws SQLException {
        Map<String, Object> original = tamperable();
        long seq = seq(original);
        Map<String, Object> rewritten = new HashMap<>(original);
        rewritten.put("actor", "mallory");
        Sql.tamper("UPDATE audit_entry SET actor = 'mallory', entry_hash = ? WHERE seq = ?",
                AuditTrail.hashOf(rewritten), seq);
        try {
            Map<String, Object> verdict = verify();
            assertEquals(false, verdict.get("intact"));
            assertEquals(seq, ((Number) verdict.get("firstBrokenSeq")).longValue());
            assertEquals("entry " + (seq + 1) + " does not link to entry " + seq + ": entry " + seq
                    + " was rewritten and its hash recomputed", verdict.get("reason"));
        } finally {
            Sql.tamper("UPDATE audit_entry SET actor = ?, entry_hash = ? WHERE seq = ?", original.get("actor"),
                    original.get("entryHash"), seq);
        }
        assertEquals(true, verify().get("intact"));
    }

    @Test
    void findsAMissingEntry() throws SQLException {
        Map<String, Object> original = tamperable();
        long seq = seq(original);
        try (Connection connection = Sql.connect(); Statement sql = connection.createStatement()) {
            // one session with triggers off: the row is kept aside, deleted, and put back after the check
            sql.execute("SET session_replication_role = replica");
            sql.execute("CREATE TEMPORARY TABLE kept AS SELECT * FROM audit_entry WHERE seq = " + seq);
            sql.execute("DELETE FROM audit_entry WHERE seq = " + seq);
            try {
                Map<String, Object> verdict = verify();
                assertEquals(false, verdict.get("intact"));
                assertEquals(seq, ((Number) verdict.get("firstBrokenSeq")).longValue());
                assertEquals("entry " + seq + " is missing: the chain goes from entry " + (seq - 1) + " to entry "
                        + (seq + 1), verdict.get("reason"));
            } finally {
                sql.execute("INSERT INTO audit_entry SELECT * FROM kept");
            }
        }
        assertEquals(original, AuditTrail.entries((String) original.get("workspace")).get(0));
        assertEquals(true, verify().get("intact"));
    }

    @Test
    void findsACheckpointWhoseSignatureWasReplaced() throws SQLException {
        String original = as(Tokens.bob()).post("/api/v1/audit/checkpoints").then().statusCode(201)
                .extract().path("note");
        String signature = original.substring(original.lastIndexOf(' ') + 1, original.length() - 1);
        byte[] forged = Base64.getDecoder().decode(signature);
        forged[10] ^= 1;
        String tampered = original.replace(signature, Base64.getEncoder().encodeToString(forged));
        Sql.tamper("UPDATE audit_tree_checkpoint SET note = ? WHERE note = ?", tampered, original);
        try {
            Map<String, Object> verdict = verify();
            assertEquals(false, verdict.get("intact"));
            assertEquals(null, verdict.get("firstBrokenSeq"));
            assertThat((String) verdict.get("reason"), containsString("is not signed by a trusted key"));
        } finally {
            Sql.tamper("UPDATE audit_tree_checkpoint SET note = ? WHERE note = ?", original, tampered);
        }
        assertEquals(true, verify().get("intact"));
    }

    /** The attack of the trust issue: the tree re-signed with a key of the attacker's own. */
    @Test
    void findsACheckpointResignedWithAForeignKey() throws Exception {
        Map<String, Object> checkpoint = as(Tokens.bob()).post("/api/v1/audit/checkpoints").then().statusCode(201)
                .extract().jsonPath().getMap("");
        String original = (String) checkpoint.get("note");
        KeyPair foreign = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String body = SignedNote.parse(original).body();
        String resigned = SignedNote.sign(body, "evidence-store.test/audit", foreign.getPrivate());
        String keyId = NoteKey.of("evidence-store.test/audit", foreign.getPublic()).keyIdHex();
        Sql.tamper("UPDATE audit_tree_checkpoint SET note = ?, key_id = ? WHERE note = ?", resigned, keyId, original);
        try {
            Map<String, Object> verdict = verify();
            assertEquals(false, verdict.get("intact"));
            assertEquals("the checkpoint of " + Instant.parse((String) checkpoint.get("at")) + " over "
                    + checkpoint.get("treeSize") + " entries is not signed by a trusted key (GET /api/v1/audit/keys "
                    + "lists them)", verdict.get("reason"));
            Map<String, Object> held = verify(resigned);
            assertEquals(false, held.get("intact"));
            assertThat((String) held.get("reason"), containsString("is not signed by a trusted key"));
        } finally {
            Sql.tamper("UPDATE audit_tree_checkpoint SET note = ?, key_id = ? WHERE note = ?", original,
                    checkpoint.get("keyId"), resigned);
        }
        assertEquals(true, verify().get("intact"));
    }

    /**
     * A checkpoint someone kept covers more entries than the log now has: entries were removed after it, even if
     * every stored checkpoint that covered them went too. Signed with the service's own (development) key, as the
     * real one would be.
     */
    @Test
    void findsEntriesRemovedAfterACheckpointSomeoneHolds() throws Exception {
        Sql.awaitAuditSequenced();
        long size = Sql.count("SELECT count(*) FROM audit_tree_node WHERE level = 0");
        String held = devSigned(size + 5, new byte[32]);
        Map<String, Object> verdict = verify(held);
        assertEquals(false, verdict.get("intact"));
        assertEquals(size + 1, ((Number) verdict.get("firstBrokenSeq")).longValue());
        assertEquals("the log has " + size + " entries, but the checkpoint sent with the request covers "
                + (size + 5) + ": entries after " + size + " were removed", verdict.get("reason"));
    }

    /** A checkpoint someone kept, of a log the service's own key signed, whose first entries were since rewritten. */
    @Test
    void findsALogRewrittenSinceACheckpointSomeoneHolds() throws Exception {
        long size = Sql.count("SELECT count(*) FROM audit_tree_node WHERE level = 0");
        Map<String, Object> verdict = verify(devSigned(size, new byte[32]));
        assertEquals(false, verdict.get("intact"));
        assertEquals(null, verdict.get("firstBrokenSeq"));
        assertEquals("the log's first " + size + " entries are not those the checkpoint sent with the request "
                + "signed: the log was rewritten since", verdict.get("reason"));
        assertEquals(true, verify(devSigned(size, AuditTrail.naiveRoot(size))).get("intact"));
    }

    private static String devSigned(long size, byte[] root) throws Exception {
        PrivateKey key = Ed25519Keys.readPrivatePem(Files.readString(Path.of("dev/keys/audit-ed25519-private.pem")));
        return SignedNote.sign(new Checkpoint("evidence-store.test/audit", size, root).body(),
                "evidence-store.test/audit", key);
    }

    @Test
    void aHeldCheckpointThatIsNoSignedNoteIsRefused() {
        problem(api().contentType("application/json").body(Map.of("checkpoint", "not a note"))
                .post(VERIFY).then(), 400, "invalid-request");
    }

    @Test
    void everyRoleMayVerifyAndNobodyWithoutAToken() {
        for (String role : Tokens.ALL_ROLES) {
            as(Tokens.of("rita", role)).contentType("application/json").body("{}").post(VERIFY).then().statusCode(200);
        }
        problem(as(Tokens.of("eve", "auditor")).contentType("application/json").body("{}").post(VERIFY).then(), 403,
                "forbidden");
        problem(invalidAs(null).contentType("application/json").body("{}").post(VERIFY).then(), 401, "unauthorized");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "UPDATE audit_entry SET actor = 'mallory'",
        "UPDATE audit_entry SET entry_hash = entry_hash",
        "DELETE FROM audit_entry",
        "TRUNCATE audit_entry",
        "TRUNCATE audit_checkpoint",
        "UPDATE audit_tree_checkpoint SET note = note",
        "DELETE FROM audit_tree_checkpoint",
        "TRUNCATE audit_tree_checkpoint",
        "UPDATE audit_tree_node SET hash = hash",
        "DELETE FROM audit_tree_node",
        "TRUNCATE audit_tree_node"
    })
    void theDatabaseRefusesToChangeTheAuditRecord(String statement) {
        SQLException refused = assertThrows(SQLException.class, () -> Sql.update(statement));
        assertThat(refused.getMessage(), containsString("evidence is write-once"));
    }

    @Test
    void theDatabaseRefusesEntriesOffTheChain() throws Exception {
        Sql.awaitAuditSequenced();
        long head = Sql.count("SELECT max(seq) FROM audit_entry");
        String insert = "INSERT INTO audit_entry (seq, at, actor, method, path, status, prev_hash, entry_hash) "
                + "VALUES (?, now(), 'mallory', 'POST', '/', 201, ?, ?)";
        String zero = AuditTrail.ZERO_HASH;
        for (Object[] parameters : List.of(new Object[] {head + 2, zero, zero}, new Object[] {head + 1, zero, zero},
                new Object[] {1L, zero, zero})) {
            SQLException refused = assertThrows(SQLException.class, () -> Sql.update(insert, parameters));
            assertThat(refused.getMessage(), containsString("INSERT refused"));
        }
    }

    private static Map<String, Object> verify(String held) {
        return api().contentType("application/json").body(Map.of("checkpoint", held)).post(VERIFY).then()
                .statusCode(200).extract().jsonPath().getMap("");
    }

    private static Map<String, Object> verify() {
        return api().contentType("application/json").body("{}").post(VERIFY).then().statusCode(200).extract()
                .jsonPath().getMap("");
    }

    /** The first of two entries of a workspace of this test's own: not the head of the chain. */
    private static Map<String, Object> tamperable() {
        String ws = AuditTrail.newWorkspace();
        AuditTrail.newIncident(ws);
        AuditTrail.newIncident(ws);
        return AuditTrail.entries(ws).get(0);
    }
}
