package dev.evidencestore.audit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an entry keeps of a value the client chose that is longer than {@link #MAX_BYTES} bytes of UTF-8: the value
 * itself is cut to its first whole characters within that bound, and this records the length and the SHA-256 of
 * the whole, so that whoever holds the value can show that the entry was made of it. A hostile client so cannot
 * make an entry larger than the bound, however long the path it sends.
 */
public record Truncation(long length, String digest) {

    /** The most bytes of UTF-8 an entry keeps of any value the client chose (path, target, actor, method). */
    public static final int MAX_BYTES = 256;
    private static final String SHA256 = "sha256:";

    /** Whether {@code value} is longer than an entry keeps. */
    static boolean needed(String value) {
        return value != null && value.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES;
    }

    /** The length and digest of the whole of {@code value}. */
    static Truncation of(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return new Truncation(bytes.length, SHA256 + HexFormat.of().formatHex(sha256(bytes)));
    }

    /** {@code value} cut to at most {@code maxBytes} bytes of UTF-8, never inside a character. */
    static String cut(String value, int maxBytes) {
        int bytes = 0;
        int end = 0;
        while (end < value.length()) {
            int codePoint = value.codePointAt(end);
            int size = utf8Length(codePoint);
            if (bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            end += Character.charCount(codePoint);
        }
        return value.substring(0, end);
    }

    /** The members of this truncation in an entry's canonical JSON. */
    Map<String, Object> members() {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("length", length);
        members.put("digest", digest);
        return members;
    }

    /** The truncation these members describe, as {@link #members()} wrote them. */
    static Truncation of(Map<?, ?> members) {
        return new Truncation(((Number) members.get("length")).longValue(), (String) members.get("digest"));
    }

    private static int utf8Length(int codePoint) {
        if (codePoint < 0x80) {
            return 1;
        }
        if (codePoint < 0x800) {
            return 2;
        }
        // a lone surrogate is written as one replacement byte; counting it as three only cuts earlier
        return codePoint < 0x10000 ? 3 : 4;
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
