package dev.evidencestore.verify;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Verification of inclusion and consistency proofs, the algorithms of RFC 9162 2.1.3.2 and 2.1.4.2. These run on
 * the verifier's side, against a root it trusts (from a signed checkpoint), so they share nothing with the code that
 * builds the proofs: a bug in {@link MerkleTree} cannot make its own proofs pass here.
 */
public final class MerkleProof {

    private MerkleProof() {
    }

    /** Checks that the leaf with this hash is at {@code index} in the tree of {@code size} leaves with this root. */
    public static void verifyInclusion(long index, long size, byte[] leafHash, List<byte[]> proof, byte[] root) {
        requireHash(root, "expected root");
        byte[] computed = rootFromInclusion(index, size, leafHash, proof);
        if (!MessageDigest.isEqual(computed, root)) {
            throw new ProofFailure("inclusion proof for leaf " + index + " of " + size + " leads to root "
                    + base64(computed) + ", not the expected " + base64(root));
        }
    }

    /**
     * The root an inclusion proof leads to. Only a root compared with a trusted one proves anything; this is for a
     * caller that compares it itself, for instance with several checkpoints of the same size.
     */
    public static byte[] rootFromInclusion(long index, long size, byte[] leafHash, List<byte[]> proof) {
        if (index < 0 || index >= size) {
            throw new ProofFailure("leaf index " + index + " is not in a tree of " + size + " leaves");
        }
        requireHash(leafHash, "leaf hash");
        requireHashes(proof, "inclusion proof");
        long fn = index;
        long sn = size - 1;
        byte[] r = leafHash;
        for (byte[] p : proof) {
            if (sn == 0) {
                throw new ProofFailure("inclusion proof for leaf " + index + " of " + size + " has " + proof.size()
                        + " hashes, more than the path to the root");
            }
            if ((fn & 1) == 1 || fn == sn) {
                r = MerkleHash.node(p, r);
                // a right border node has no sibling at the levels above it until the path turns left
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                r = MerkleHash.node(r, p);
            }
            fn >>= 1;
            sn >>= 1;
        }
        if (sn != 0) {
            throw new ProofFailure("inclusion proof for leaf " + index + " of " + size + " has " + proof.size()
                    + " hashes, fewer than the path to the root");
        }
        return r;
    }

    /** Checks that the tree of {@code fromSize} leaves with {@code fromRoot} is a prefix of the tree with toRoot. */
    public static void verifyConsistency(long fromSize, long toSize, byte[] fromRoot, byte[] toRoot,
            List<byte[]> proof) {
        requireHash(fromRoot, "first root");
        requireHash(toRoot, "second root");
        requireHashes(proof, "consistency proof");
        if (fromSize < 0 || toSize < fromSize) {
            throw new ProofFailure("consistency proof from " + fromSize + " to " + toSize
                    + ": the first tree must be no larger than the second, and not negative");
        }
        if (fromSize == toSize || fromSize == 0) {
            if (!proof.isEmpty()) {
                throw new ProofFailure("consistency proof from " + fromSize + " to " + toSize + " must be empty, it has "
                        + proof.size() + " hashes");
            }
            byte[] expected = fromSize == 0 ? MerkleHash.empty() : toRoot;
            if (!MessageDigest.isEqual(fromRoot, expected)) {
                throw new ProofFailure(fromSize == 0
                        ? "first root " + base64(fromRoot) + " is not the root of the empty tree"
                        : "the roots of two trees of " + toSize + " leaves differ: " + base64(fromRoot) + " and "
                                + base64(toRoot));
            }
            return;
        }
        if (proof.isEmpty()) {
            throw new ProofFailure("consistency proof from " + fromSize + " to " + toSize + " is empty");
        }
        List<byte[]> path = new ArrayList<>(proof.size() + 1);
        // the old tree is a perfect subtree of the new one: its root is the proof's first step, and it is not sent
        if (Long.bitCount(fromSize) == 1) {
            path.add(fromRoot);
        }
        path.addAll(proof);
        long fn = fromSize - 1;
        long sn = toSize - 1;
        while ((fn & 1) == 1) {
            fn >>= 1;
            sn >>= 1;
        }
        byte[] fr = path.get(0);
        byte[] sr = path.get(0);
        for (byte[] c : path.subList(1, path.size())) {
            if (sn == 0) {
                throw new ProofFailure("consistency proof from " + fromSize + " to " + toSize + " has " + proof.size()
                        + " hashes, more than the two trees need");
            }
            if ((fn & 1) == 1 || fn == sn) {
                fr = MerkleHash.node(c, fr);
                sr = MerkleHash.node(c, sr);
                while ((fn & 1) == 0 && fn != 0) {
                    fn >>= 1;
                    sn >>= 1;
                }
            } else {
                sr = MerkleHash.node(sr, c);
            }
            fn >>= 1;
            sn >>= 1;
        }
        if (sn != 0) {
            throw new ProofFailure("consistency proof from " + fromSize + " to " + toSize + " has " + proof.size()
                    + " hashes, fewer than the two trees need");
        }
        if (!MessageDigest.isEqual(fr, fromRoot)) {
            throw new ProofFailure("consistency proof from " + fromSize + " to " + toSize + " leads to first root "
                    + base64(fr) + ", not the expected " + base64(fromRoot));
        }
        if (!MessageDigest.isEqual(sr, toRoot)) {
            throw new ProofFailure("consistency proof from " + fromSize + " to " + toSize + " leads to second root "
                    + base64(sr) + ", not the expected " + base64(toRoot));
        }
    }

    private static void requireHashes(List<byte[]> proof, String what) {
        if (proof == null) {
            throw new ProofFailure(what + " is missing");
        }
        for (int i = 0; i < proof.size(); i++) {
            requireHash(proof.get(i), what + " hash " + i);
        }
    }

    private static void requireHash(byte[] hash, String what) {
        if (hash == null || hash.length != MerkleHash.SIZE) {
            throw new ProofFailure(what + " is " + (hash == null ? "missing" : hash.length + " bytes")
                    + ", not a " + MerkleHash.SIZE + "-byte hash");
        }
    }

    private static String base64(byte[] hash) {
        return Base64.getEncoder().encodeToString(hash);
    }
}
