package dev.evidencestore.audit;

import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
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
    void reportsAnIntactChain() throws SQLException {
        long length = Sql.count("SELECT max(seq) FROM audit_entry");
        long checkpoints = Sql.count("SELECT count(*) FROM audit_checkpoint");
        Map<String, Object> expected = new HashMap<>();
        expected.put("intact", true);
        expected.put("entries", (int) length);
        expected.put("checkpoints", (int) checkpoints);
        expected.put("firstBrokenSeq", null);
        expected.put("reason", null);
        assertEquals(expected, verify());
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
                .extract().path("signature");
        String forged = Base64.getEncoder().encodeToString(new byte[64]);
        Sql.tamper("UPDATE audit_checkpoint SET signature = ? WHERE signature = ?", forged, original);
        try {
            Map<String, Object> verdict = verify();
            assertEquals(false, verdict.get("intact"));
            assertEquals(null, verdict.get("firstBrokenSeq"));
            assertThat((String) verdict.get("reason"), containsString("does not carry a valid signature"));
        } finally {
            Sql.tamper("UPDATE audit_checkpoint SET signature = ? WHERE signature = ?", original, forged);
        }
        assertEquals(true, verify().get("intact"));
    }

    @Test
    void everyRoleMayVerifyAndNobodyWithoutAToken() {
        for (String role : Tokens.ALL_ROLES) {
            as(Tokens.of("rita", role)).post(VERIFY).then().statusCode(200);
        }
        problem(as(Tokens.of("eve", "auditor")).post(VERIFY).then(), 403, "forbidden");
        problem(invalidAs(null).post(VERIFY).then(), 401, "unauthorized");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "UPDATE audit_entry SET actor = 'mallory'",
        "UPDATE audit_entry SET entry_hash = entry_hash",
        "DELETE FROM audit_entry",
        "TRUNCATE audit_entry",
        "UPDATE audit_checkpoint SET signature = signature",
        "DELETE FROM audit_checkpoint",
        "TRUNCATE audit_checkpoint"
    })
    void theDatabaseRefusesToChangeTheAuditRecord(String statement) {
        SQLException refused = assertThrows(SQLException.class, () -> Sql.update(statement));
        assertThat(refused.getMessage(), containsString("evidence is write-once"));
    }

    @Test
    void theDatabaseRefusesEntriesOffTheChain() throws SQLException {
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

    private static Map<String, Object> verify() {
        return api().post(VERIFY).then().statusCode(200).extract().jsonPath().getMap("");
    }

    /** The first of two entries of a workspace of this test's own: not the head of the chain. */
    private static Map<String, Object> tamperable() {
        String ws = AuditTrail.newWorkspace();
        AuditTrail.newIncident(ws);
        AuditTrail.newIncident(ws);
        return AuditTrail.entries(ws).get(0);
    }
}
