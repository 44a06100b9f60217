package dev.evidencestore.audit;

import dev.evidencestore.support.Concurrently;
import dev.evidencestore.support.Sql;
import dev.evidencestore.verify.MerkleHash;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import static dev.evidencestore.support.Api.api;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Entries appended from many threads at once are sequenced together: each gets one place in the chain, one leaf in
 * the Merkle tree, and leaves the pending table; the stored subtrees are those of the entries' own leaves.
 */
@QuarkusTest
class AuditSequencerTest {

    @Inject
    AuditLog log;

    @Test
    void concurrentAppendsGetOnePlaceEachInTheChainAndTheTree() throws Exception {
        List<Callable<Void>> appends = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            String path = "/api/v1/workspaces/group-commit/incidents/G-" + i;
            appends.add(() -> {
                log.append(new AuditEvent("alice", "group-commit", "POST", path, null, 201, null));
                return null;
            });
        }
        Concurrently.run(appends);
        log.awaitSequenced();

        for (int i = 0; i < 64; i++) {
            assertEquals(1, Sql.count("SELECT count(*) FROM audit_entry WHERE path = ?",
                    "/api/v1/workspaces/group-commit/incidents/G-" + i), "entry " + i + " once");
        }
        assertEquals(0, Sql.count("SELECT count(*) FROM audit_pending"), "nothing left pending");
        long entries = Sql.count("SELECT count(*) FROM audit_entry");
        assertEquals(entries, Sql.count("SELECT max(seq) FROM audit_entry"), "seq runs without gaps");
        assertEquals(entries, Sql.count("SELECT count(*) FROM audit_tree_node WHERE level = 0"), "a leaf each");
        assertStoredTreeIsTheTreeOfTheEntries(entries);
        assertEquals(true, api().contentType("application/json").body("{}").post("/api/v1/audit/verify").then().statusCode(200).extract().path("intact"));
    }

    /** An entry its instance committed and then died before sequencing: another instance sequences it unasked. */
    @Test
    void anEntryLeftPendingIsSequencedWithoutARequest() throws Exception {
        String path = "/api/v1/workspaces/left-pending/incidents/P-1";
        Sql.update("INSERT INTO audit_pending (at, actor, workspace, method, path, target, status) "
                + "VALUES (now(), 'alice', 'left-pending', 'POST', ?, ?, 201)", path, path);
        long deadline = System.currentTimeMillis() + 10_000;
        while (Sql.count("SELECT count(*) FROM audit_entry WHERE path = ?", path) == 0
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(1, Sql.count("SELECT count(*) FROM audit_entry WHERE path = ?", path));
        assertEquals(0, Sql.count("SELECT count(*) FROM audit_pending WHERE path = ?", path));
    }

    /** Rebuilds every perfect subtree from the entries' canonical JSON and compares it with the stored node. */
    private void assertStoredTreeIsTheTreeOfTheEntries(long entries) throws Exception {
        List<AuditEntry> all = log.range(0, entries, (int) entries + 1);
        assertEquals(entries, all.size());
        List<byte[]> level = new ArrayList<>();
        for (AuditEntry entry : all) {
            level.add(MerkleHash.leaf(entry.canonicalJson()));
        }
        Map<String, byte[]> stored = storedNodes();
        for (int height = 0; !level.isEmpty(); height++) {
            for (int index = 0; index < level.size(); index++) {
                assertArrayEquals(level.get(index), stored.get(height + "/" + index), "node " + height + "/" + index);
            }
            List<byte[]> parents = new ArrayList<>();
            for (int index = 0; index + 1 < level.size(); index += 2) {
                parents.add(MerkleHash.node(level.get(index), level.get(index + 1)));
            }
            level = parents;
        }
    }

    /** Every stored node by "level/index", read in one query: a query per node took most of the test's time. */
    private static Map<String, byte[]> storedNodes() throws Exception {
        Map<String, byte[]> nodes = new HashMap<>();
        try (Connection connection = Sql.connect();
             PreparedStatement select = connection.prepareStatement("SELECT level, idx, hash FROM audit_tree_node");
             ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                nodes.put(rows.getInt(1) + "/" + rows.getLong(2), rows.getBytes(3));
            }
        }
        return nodes;
    }
}
