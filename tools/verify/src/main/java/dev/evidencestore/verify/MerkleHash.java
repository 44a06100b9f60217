package dev.evidencestore.verify;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** TEMPORARY until the verify library lands: RFC 6962 hashing. */
public final class MerkleHash {

    private MerkleHash() {
    }

    public static byte[] leaf(byte[] entry) {
        MessageDigest sha = sha256();
        sha.update((byte) 0);
        return sha.digest(entry);
    }

    public static byte[] node(byte[] left, byte[] right) {
        MessageDigest sha = sha256();
        sha.update((byte) 1);
        sha.update(left);
        return sha.digest(right);
    }

    public static byte[] empty() {
        return sha256().digest();
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
