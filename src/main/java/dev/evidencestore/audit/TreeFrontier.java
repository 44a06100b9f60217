package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditTreeNodes;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.Node;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The right edge of the Merkle tree: for every bit set in its size, the perfect subtree that ends there. That is all
 * appending needs: a new leaf completes a subtree with its left neighbour exactly where adding one to the size
 * carries a bit, as in binary counting, and each completed subtree is a new node to store.
 */
final class TreeFrontier {

    private static final int LEVELS = 63;

    private final byte[][] edge = new byte[LEVELS][];
    private long size;

    private TreeFrontier(long size) {
        this.size = size;
    }

    /** The edge of a tree without leaves, to rebuild a tree in memory from its entries. */
    static TreeFrontier empty() {
        return new TreeFrontier(0);
    }

    /** The edge of the stored tree of {@code size} leaves, read in one query. */
    static TreeFrontier of(long size) {
        TreeFrontier frontier = new TreeFrontier(size);
        List<Node> wanted = frontier.edgeNodes();
        Map<Node, byte[]> found = AuditTreeNodes.find(wanted);
        for (Node node : wanted) {
            byte[] hash = found.get(node);
            if (hash == null) {
                throw new IllegalStateException("the audit tree of " + size + " leaves lacks its node " + node
                        + ": it cannot be extended");
            }
            frontier.edge[node.level()] = hash;
        }
        return frontier;
    }

    /** An edge of its own, which appending to leaves this one as it is. */
    TreeFrontier copy() {
        TreeFrontier copy = new TreeFrontier(size);
        System.arraycopy(edge, 0, copy.edge, 0, LEVELS);
        return copy;
    }

    /** Appends a leaf and returns the nodes it completes, the leaf itself first. */
    Map<Node, byte[]> append(byte[] leafHash) {
        Map<Node, byte[]> completed = new LinkedHashMap<>();
        int level = 0;
        long index = size;
        byte[] hash = leafHash;
        completed.put(new Node(level, index), hash);
        while ((index & 1) == 1) {
            hash = MerkleHash.node(edge[level], hash);
            edge[level] = null;
            level++;
            index >>= 1;
            completed.put(new Node(level, index), hash);
        }
        edge[level] = hash;
        size++;
        return completed;
    }

    long size() {
        return size;
    }

    /** The root hash of the tree as it stands (RFC 9162 MTH): the edge folded from its smallest subtree up. */
    byte[] root() {
        byte[] root = null;
        for (int level = 0; level < LEVELS; level++) {
            if (edge[level] != null) {
                root = root == null ? edge[level] : MerkleHash.node(edge[level], root);
            }
        }
        return root == null ? MerkleHash.empty() : root;
    }

    private List<Node> edgeNodes() {
        List<Node> nodes = new ArrayList<>();
        for (int level = 0; level < LEVELS; level++) {
            if (((size >> level) & 1) == 1) {
                nodes.add(new Node(level, (size >> level) - 1));
            }
        }
        return nodes;
    }
}
