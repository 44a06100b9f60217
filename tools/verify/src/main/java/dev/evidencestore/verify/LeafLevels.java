package dev.evidencestore.verify;

import java.util.ArrayList;
import java.util.List;

/** All perfect subtrees over a list of leaf hashes, level by level: each level pairs the complete nodes below. */
final class LeafLevels implements SubtreeHashes {

    private final List<List<byte[]>> levels = new ArrayList<>();

    LeafLevels(List<byte[]> leafHashes) {
        List<byte[]> level = List.copyOf(leafHashes);
        for (int i = 0; i < level.size(); i++) {
            MerkleHash.requireHash(level.get(i), "leaf hash " + i);
        }
        levels.add(level);
        while (level.size() > 1) {
            List<byte[]> above = new ArrayList<>(level.size() / 2);
            for (int i = 0; i + 1 < level.size(); i += 2) {
                above.add(MerkleHash.node(level.get(i), level.get(i + 1)));
            }
            levels.add(above);
            level = above;
        }
    }

    @Override
    public byte[] hash(int level, long index) {
        if (level >= levels.size() || index >= levels.get(level).size()) {
            throw new IllegalStateException("node (level " + level + ", index " + index + ") is not complete in a tree of "
                    + levels.get(0).size() + " leaves");
        }
        return levels.get(level).get((int) index);
    }
}
