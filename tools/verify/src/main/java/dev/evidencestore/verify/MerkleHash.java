package dev.evidencestore.verify;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The hashes of an RFC 6962 / RFC 9162 Merkle tree over SHA-256. The one-byte prefixes keep a leaf from ever being
 * taken for an inner node (a second preimage across levels), which is why a leaf is not simply SHA-256 of its entry.
 */
public final class MerkleHash {

    /** Every hash of the tree is a SHA-256 digest. */
    public static final int SIZE = 32;

    private static final byte LEAF_PREFIX = 0x00;
    private static final byte NODE_PREFIX = 0x01;

    private MerkleHash() {
    }

    /** SHA-256(0x00 || entry): the hash of one log entry. */
    public static byte[] leaf(byte[] entry) {
        MessageDigest sha256 = sha256();
        sha256.update(LEAF_PREFIX);
        sha256.update(entry);
        return sha256.digest();
    }

    /** SHA-256(0x01 || left || right): the hash of an inner node. */
    public static byte[] node(byte[] left, byte[] right) {
        requireHash(left, "left child");
        requireHash(right, "right child");
        MessageDigest sha256 = sha256();
        sha256.update(NODE_PREFIX);
        sha256.update(left);
        sha256.update(right);
        return sha256.digest();
    }

    /** SHA-256 of no bytes: the root of the tree with no leaves. */
    public static byte[] empty() {
        return sha256().digest();
    }

    static void requireHash(byte[] hash, String what) {
        if (hash == null || hash.length != SIZE) {
            throw new IllegalArgumentException(what + " is " + (hash == null ? "missing" : hash.length + " bytes")
                    + ", not a " + SIZE + "-byte SHA-256 hash");
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // every Java platform is required to provide SHA-256
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
