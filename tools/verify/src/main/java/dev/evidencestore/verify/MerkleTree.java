package dev.evidencestore.verify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Roots and proofs of an RFC 9162 Merkle tree, computed from its perfect subtrees ({@link SubtreeHashes}).
 *
 * <p>RFC 9162 defines MTH recursively: a tree of n leaves splits at k, the largest power of two below n, into a
 * perfect left subtree of k leaves and the rest. Unrolled, the hash of any range the proofs need is the fold of at
 * most 64 perfect subtrees, one per set bit of its length, so a root or a proof costs O(log n) lookups, never a walk
 * of the leaves.
 *
 * <p>The algorithms decide what to ask for from indices and sizes alone, never from a hash they were given. That is
 * what makes {@link #nodesForRoot}, {@link #nodesForInclusion} and {@link #nodesForConsistency} exact: they run the
 * same code with a source that records the nodes asked for, so a log can fetch them all in one query and then run
 * the real computation over {@link SubtreeHashes#of(java.util.Map)}.
 */
public final class MerkleTree {

    /** The hash any node is replaced by while recording: a valid length, a value that is never looked at. */
    private static final byte[] PLACEHOLDER = new byte[MerkleHash.SIZE];

    private MerkleTree() {
    }

    /** MTH(D[0:size]), the root hash of the tree's first {@code size} leaves. */
    public static byte[] root(long size, SubtreeHashes hashes) {
        requireSize(size, "tree size");
        return size == 0 ? MerkleHash.empty() : range(0, size, hashes);
    }

    /** PATH(index, D[0:size]) of RFC 9162 2.1.3.1: the sibling hashes from the leaf up to the root. */
    public static List<byte[]> inclusionProof(long index, long size, SubtreeHashes hashes) {
        requireSize(size, "tree size");
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("leaf index " + index + " is not in a tree of " + size + " leaves");
        }
        List<byte[]> proof = new ArrayList<>();
        path(index, 0, size, hashes, proof);
        return Collections.unmodifiableList(proof);
    }

    /**
     * PROOF(from, D[0:to]) of RFC 9162 2.1.4.1: the hashes that show the tree of {@code from} leaves is a prefix of
     * the tree of {@code to} leaves. It is empty when there is nothing to show: {@code from} is 0 or equals
     * {@code to}.
     */
    public static List<byte[]> consistencyProof(long from, long to, SubtreeHashes hashes) {
        requireSize(from, "first tree size");
        requireSize(to, "second tree size");
        if (from > to) {
            throw new IllegalArgumentException("first tree size " + from + " exceeds second tree size " + to);
        }
        List<byte[]> proof = new ArrayList<>();
        if (from > 0 && from < to) {
            subproof(from, 0, to, true, hashes, proof);
        }
        return Collections.unmodifiableList(proof);
    }

    /** The nodes {@link #root} reads for this size, in the order it reads them. */
    public static Set<Node> nodesForRoot(long size) {
        Recorder recorder = new Recorder();
        root(size, recorder);
        return recorder.asked;
    }

    /** The nodes {@link #inclusionProof} reads for this leaf and size. */
    public static Set<Node> nodesForInclusion(long index, long size) {
        Recorder recorder = new Recorder();
        inclusionProof(index, size, recorder);
        return recorder.asked;
    }

    /** The nodes {@link #consistencyProof} reads for these sizes. */
    public static Set<Node> nodesForConsistency(long from, long to) {
        Recorder recorder = new Recorder();
        consistencyProof(from, to, recorder);
        return recorder.asked;
    }

    /**
     * MTH(D[start:start+n]) for a range the recursion produces: start is a multiple of a power of two at least n,
     * so the range splits, bit by bit of n from the top, into aligned perfect subtrees. MTH of such a range is
     * node(first, MTH(rest)), hence the fold from the right.
     */
    private static byte[] range(long start, long n, SubtreeHashes hashes) {
        List<byte[]> parts = new ArrayList<>(Long.bitCount(n));
        long offset = start;
        for (int level = 63 - Long.numberOfLeadingZeros(n); level >= 0; level--) {
            if ((n & (1L << level)) != 0) {
                parts.add(lookup(hashes, level, offset >> level));
                offset += 1L << level;
            }
        }
        byte[] hash = parts.get(parts.size() - 1);
        for (int i = parts.size() - 2; i >= 0; i--) {
            hash = MerkleHash.node(parts.get(i), hash);
        }
        return hash;
    }

    private static void path(long index, long start, long n, SubtreeHashes hashes, List<byte[]> proof) {
        if (n == 1) {
            return;
        }
        long k = largestPowerOfTwoBelow(n);
        if (index < k) {
            path(index, start, k, hashes, proof);
            proof.add(range(start + k, n - k, hashes));
        } else {
            path(index - k, start + k, n - k, hashes, proof);
            proof.add(range(start, k, hashes));
        }
    }

    private static void subproof(long m, long start, long n, boolean whole, SubtreeHashes hashes,
            List<byte[]> proof) {
        if (m == n) {
            // the old tree's root, unless it is the root the verifier already holds
            if (!whole) {
                proof.add(range(start, n, hashes));
            }
            return;
        }
        long k = largestPowerOfTwoBelow(n);
        if (m <= k) {
            subproof(m, start, k, whole, hashes, proof);
            proof.add(range(start + k, n - k, hashes));
        } else {
            subproof(m - k, start + k, n - k, false, hashes, proof);
            proof.add(range(start, k, hashes));
        }
    }

    /** The k of RFC 9162: the largest power of two strictly smaller than n, for n of at least 2. */
    static long largestPowerOfTwoBelow(long n) {
        return Long.highestOneBit(n - 1);
    }

    private static byte[] lookup(SubtreeHashes hashes, int level, long index) {
        byte[] hash = hashes.hash(level, index);
        MerkleHash.requireHash(hash, "node (level " + level + ", index " + index + ")");
        return hash;
    }

    private static void requireSize(long size, String what) {
        if (size < 0) {
            throw new IllegalArgumentException(what + " " + size + " is negative");
        }
    }

    /** Answers every lookup with the placeholder and keeps the nodes asked for. */
    private static final class Recorder implements SubtreeHashes {

        private final Set<Node> asked = new LinkedHashSet<>();

        @Override
        public byte[] hash(int level, long index) {
            asked.add(new Node(level, index));
            return PLACEHOLDER;
        }
    }
}
