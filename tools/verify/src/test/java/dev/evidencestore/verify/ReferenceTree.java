package dev.evidencestore.verify;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A tree built the naive way, straight from the recursive definition of RFC 9162 2.1.1 over all its leaves, to check
 * MerkleTree against. Ranges are cached so that checking thousands of proofs stays cheap; the cache changes nothing
 * of the definition.
 */
final class ReferenceTree {

    private final List<byte[]> leafHashes;
    private final Map<String, byte[]> ranges = new HashMap<>();

    ReferenceTree(List<byte[]> entries) {
        leafHashes = entries.stream().map(MerkleHash::leaf).toList();
    }

    /** Distinct random entries: each starts with its index, so no two leaves hash alike. */
    static ReferenceTree random(int size, long seed) {
        Random random = new Random(seed);
        List<byte[]> entries = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            byte[] entry = new byte[4 + random.nextInt(24)];
            random.nextBytes(entry);
            ByteBuffer.wrap(entry).putInt(i);
            entries.add(entry);
        }
        return new ReferenceTree(entries);
    }

    int size() {
        return leafHashes.size();
    }

    byte[] leafHash(int index) {
        return leafHashes.get(index);
    }

    /** MTH(D[0:n]). */
    byte[] root(int n) {
        return mth(0, n);
    }

    /** What the log's node table would hold, read off this tree. */
    SubtreeHashes subtrees() {
        return (level, index) -> {
            long from = index << level;
            long to = from + (1L << level);
            if (to > size()) {
                throw new IllegalStateException("node (" + level + ", " + index + ") is not complete");
            }
            return mth((int) from, (int) to);
        };
    }

    /** MTH(D[from:to]) by the definition: split at the largest power of two below the length. */
    byte[] mth(int from, int to) {
        int n = to - from;
        if (n == 0) {
            return MerkleHash.empty();
        }
        if (n == 1) {
            return leafHashes.get(from);
        }
        String key = from + ":" + to;
        byte[] cached = ranges.get(key);
        if (cached != null) {
            return cached;
        }
        int k = 1;
        while (k * 2 < n) {
            k *= 2;
        }
        byte[] hash = MerkleHash.node(mth(from, from + k), mth(from + k, to));
        ranges.put(key, hash);
        return hash;
    }
}
