package dev.evidencestore.verify;

import java.util.List;
import java.util.Map;

/**
 * Where the tree algorithms read hashes from: the hash of the perfect subtree covering leaves
 * [index * 2^level, (index + 1) * 2^level), level 0 being the leaf hashes. A log keeps these nodes in a table; the
 * algorithms of {@link MerkleTree} never ask for anything else, so they never need to read all the leaves.
 */
@FunctionalInterface
public interface SubtreeHashes {

    byte[] hash(int level, long index);

    /**
     * The hashes fetched ahead, for instance in one query for the nodes {@link MerkleTree#nodesForInclusion} named.
     * Asking for a node that is not in the map is a bug of the caller, not a failed proof: it throws
     * {@link IllegalStateException}.
     */
    static SubtreeHashes of(Map<Node, byte[]> fetched) {
        return (level, index) -> {
            byte[] hash = fetched.get(new Node(level, index));
            if (hash == null) {
                throw new IllegalStateException("node (level " + level + ", index " + index + ") was not fetched");
            }
            return hash;
        };
    }

    /**
     * Every perfect subtree over the given leaf hashes, computed once, in memory: for a verifier that holds all the
     * entries (a bundle), not for the log itself.
     */
    static SubtreeHashes ofLeaves(List<byte[]> leafHashes) {
        return new LeafLevels(leafHashes);
    }
}
