package dev.evidencestore.audit;

import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.evidencestore.audit.AuditTrail.alice;
import static dev.evidencestore.audit.AuditTrail.aliceJson;
import static dev.evidencestore.audit.AuditTrail.newWorkspace;
import static dev.evidencestore.support.Api.incident;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A write and its audit entry commit together: when the entry cannot be written, the write is answered 503 and
 * leaves nothing behind, and a write that is answered 2xx has its entry.
 */
@QuarkusTest
class AtomicAuditTest {

    @AfterEach
    void restoreTheAuditLog() throws Exception {
        Sql.update("DROP TRIGGER IF EXISTS audit_pending_lost ON audit_pending");
        Sql.update("DROP FUNCTION IF EXISTS audit_pending_lost()");
    }

    @Test
    void aWriteWhoseEntryCannotBeWrittenIsRefusedAndLeavesNothing() throws Exception {
        String workspace = newWorkspace();
        // the database connection breaks exactly when the entry is written, as in an outage between the two
        Sql.update("""
                CREATE FUNCTION audit_pending_lost() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'the connection broke' USING ERRCODE = '08006'; END; $$""");
        Sql.update("""
                CREATE TRIGGER audit_pending_lost BEFORE INSERT ON audit_pending
                FOR EACH ROW EXECUTE FUNCTION audit_pending_lost()""");

        aliceJson(incident("ATOM-1"))
                .post("/api/v1/workspaces/" + workspace + "/incidents")
                .then().statusCode(503)
                .header("Retry-After", "5")
                .body("type", equalTo("https://evidence-store.dev/problems/database-unavailable"));

        assertEquals(0, Sql.count("SELECT count(*) FROM incident WHERE workspace = ?", workspace),
                "the incident rolled back with its entry");
        assertEquals(0, Sql.count("SELECT count(*) FROM audit_pending WHERE workspace = ?", workspace));
    }

    @Test
    void aWriteAnswered201HasItsEntryInTheLogWhenAnswered() throws Exception {
        String workspace = newWorkspace();
        aliceJson(incident("ATOM-2"))
                .post("/api/v1/workspaces/" + workspace + "/incidents")
                .then().statusCode(201);

        String target = "/api/v1/workspaces/" + workspace + "/incidents/ATOM-2";
        // durable when answered: written with the write, numbered by the sequencer in one commit later
        assertEquals(1, Sql.count(Sql.recordedAuditEntries("workspace = ? AND target = ?"), workspace, target));
        // and in the log for any reader, who waits for its number
        alice().get("/api/v1/workspaces/{ws}/audit", workspace).then().statusCode(200)
                .body("items.target", contains(target));
    }
}
