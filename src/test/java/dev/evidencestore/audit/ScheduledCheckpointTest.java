package dev.evidencestore.audit;

import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.Map;

import static dev.evidencestore.audit.AuditTrail.seq;
import static dev.evidencestore.support.Api.api;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The schedule signs a checkpoint once entries were appended since the last one, and not otherwise. */
@QuarkusTest
@TestProfile(Profiles.Scheduled.class)
class ScheduledCheckpointTest {

    @Test
    void checkpointsNewEntriesAndOnlyThem() throws Exception {
        String ws = AuditTrail.newWorkspace();
        AuditTrail.newIncident(ws);
        Map<String, Object> head = AuditTrail.last(ws);

        long deadline = System.currentTimeMillis() + 15_000;
        while (covering(head) == 0 && System.currentTimeMillis() < deadline) {
            Thread.sleep(200);
        }
        assertEquals(1, covering(head), "one scheduled checkpoint signs the tree with the new entry");

        long checkpoints = Sql.count("SELECT count(*) FROM audit_tree_checkpoint");
        Thread.sleep(3_000);
        assertEquals(checkpoints, Sql.count("SELECT count(*) FROM audit_tree_checkpoint"), "nothing new, nothing signed");
        assertEquals(true, api().contentType("application/json").body("{}").post("/api/v1/audit/verify").then().statusCode(200).extract().path("intact"));
    }

    private static long covering(Map<String, Object> head) throws SQLException {
        return Sql.count("SELECT count(*) FROM audit_tree_checkpoint WHERE tree_size = ?", seq(head));
    }
}
