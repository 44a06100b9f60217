package dev.evidencestore.verify;

/**
 * One perfect subtree of the log: the 2^level leaves [index * 2^level, (index + 1) * 2^level). Level 0 is a leaf.
 * These are the nodes a log stores once they are complete, and the only hashes proofs are built from.
 */
public record Node(int level, long index) {

    public Node {
        if (level < 0 || level > 62) {
            throw new IllegalArgumentException("level " + level + " is outside 0..62");
        }
        if (index < 0 || index > (Long.MAX_VALUE >> level)) {
            throw new IllegalArgumentException("index " + index + " is outside the tree at level " + level);
        }
    }

    /** The index of the first leaf under this node. */
    public long firstLeaf() {
        return index << level;
    }

    /** How many leaves this node covers. */
    public long leafCount() {
        return 1L << level;
    }
}
