package dev.evidencestore.persistence;

import dev.evidencestore.verify.Node;
import io.quarkus.hibernate.orm.panache.Panache;
import org.hibernate.Session;

import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The rows of {@code audit_tree_node}, the hashes of the Merkle tree's perfect subtrees, read and written on the
 * current transaction's connection. Written in JDBC batches: the sequencer adds about two per entry.
 */
public final class AuditTreeNodes {

    private AuditTreeNodes() {
    }

    /** The number of leaves in the tree: one more than the index of the last leaf. */
    public static long leafCount() {
        Object last = Panache.getEntityManager()
                .createNativeQuery("SELECT max(idx) FROM audit_tree_node WHERE level = 0")
                .getSingleResult();
        return last == null ? 0 : ((Number) last).longValue() + 1;
    }

    /** The hashes of {@code nodes} that are stored; a node missing from the answer is not. */
    public static Map<Node, byte[]> find(Collection<Node> nodes) {
        Map<Node, byte[]> found = new HashMap<>();
        if (nodes.isEmpty()) {
            return found;
        }
        session().doWork(connection -> {
            Array levels = connection.createArrayOf("smallint",
                    nodes.stream().map(node -> (short) node.level()).toArray());
            Array indexes = connection.createArrayOf("bigint", nodes.stream().map(Node::index).toArray());
            // one index lookup per wanted node: as a plain join, the plan the driver's prepared statement caches
            // while the table is small scans the whole table, and is kept as it grows (no ANALYZE replans it)
            try (PreparedStatement select = connection.prepareStatement("""
                    SELECT wanted.level, wanted.idx, n.hash FROM unnest(?, ?) AS wanted(level, idx)
                    CROSS JOIN LATERAL (SELECT hash FROM audit_tree_node
                                        WHERE level = wanted.level AND idx = wanted.idx LIMIT 1) n""")) {
                select.setArray(1, levels);
                select.setArray(2, indexes);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        found.put(new Node(rows.getInt(1), rows.getLong(2)), rows.getBytes(3));
                    }
                }
            }
        });
        return found;
    }

    /** Inserts nodes in one batch. */
    public static void insert(Map<Node, byte[]> nodes) {
        if (nodes.isEmpty()) {
            return;
        }
        session().doWork(connection -> {
            try (PreparedStatement insert = connection.prepareStatement(
                    "INSERT INTO audit_tree_node (level, idx, hash) VALUES (?, ?, ?)")) {
                for (Map.Entry<Node, byte[]> node : nodes.entrySet()) {
                    insert.setShort(1, (short) node.getKey().level());
                    insert.setLong(2, node.getKey().index());
                    insert.setBytes(3, node.getValue());
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        });
    }

    private static Session session() {
        Session session = Panache.getEntityManager().unwrap(Session.class);
        // entities persisted earlier in the transaction reach the database first, so the batch sees them
        session.flush();
        return session;
    }
}
