package dev.evidencestore.domain;

import org.apache.commons.codec.binary.Hex;
import org.apache.commons.codec.digest.DigestUtils;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Base64;

/** A SHA-256 content digest, always {@code sha256:} followed by 64 lowercase hex digits. */
public record Digest(String hex) {

    public static final String PREFIX = "sha256:";
    private static final int HEX_LENGTH = 64;
    private static final int READ_BLOCK = 256 * 1024;

    public Digest {
        if (!isLowercaseHex(hex)) {
            throw Refusal.invalid("digest", "must be sha256: followed by 64 lowercase hex digits");
        }
    }

    /** Every digest read from the database is checked here: a loop, as a regex was a tenth of a postmortem's CPU. */
    private static boolean isLowercaseHex(String hex) {
        if (hex == null || hex.length() != HEX_LENGTH) {
            return false;
        }
        for (int i = 0; i < HEX_LENGTH; i++) {
            char c = hex.charAt(i);
            if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    public static Digest parse(String text) {
        if (text == null || !text.startsWith(PREFIX)) {
            throw Refusal.invalid("digest", "must be sha256: followed by 64 lowercase hex digits");
        }
        return new Digest(text.substring(PREFIX.length()));
    }

    public static Digest of(byte[] sha256) {
        if (sha256.length != 32) {
            throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, got " + sha256.length);
        }
        return new Digest(Hex.encodeHexString(sha256));
    }

    /**
     * The digest of everything {@code in} has left, read in large blocks (commons-codec's stream helpers read 1 KiB
     * at a time, which made a verification a third slower than hashing allows).
     */
    public static Digest of(InputStream in) throws IOException {
        MessageDigest sha256 = DigestUtils.getSha256Digest();
        byte[] buffer = new byte[READ_BLOCK];
        int n;
        while ((n = in.read(buffer)) >= 0) {
            sha256.update(buffer, 0, n);
        }
        return of(sha256.digest());
    }

    /** Accepts the raw 32 bytes of an RFC 9530 {@code sha-256} value. */
    public static Digest ofBase64(String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw Refusal.invalid("Content-Digest", "sha-256 value is not valid base64");
        }
        if (bytes.length != 32) {
            throw Refusal.invalid("Content-Digest", "sha-256 value must be 32 bytes");
        }
        return of(bytes);
    }

    public byte[] bytes() {
        try {
            return Hex.decodeHex(hex);
        } catch (org.apache.commons.codec.DecoderException e) {
            throw new IllegalStateException(e);
        }
    }

    public String base64() {
        return Base64.getEncoder().encodeToString(bytes());
    }

    @Override
    public String toString() {
        return PREFIX + hex;
    }
}
