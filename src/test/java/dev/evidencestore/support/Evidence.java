package dev.evidencestore.support;

import org.apache.commons.codec.digest.DigestUtils;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/** Test data: unique incident keys, byte payloads and their digests. */
public final class Evidence {

    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final long RUN = System.nanoTime() % 100_000;

    private Evidence() {
    }

    /** An incident key no other test uses, e.g. {@code T7-123450001}. */
    public static String uniqueKey() {
        return "T" + RUN % 10 + "-" + String.format("%05d%04d", RUN, SEQUENCE.incrementAndGet());
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Bytes no other test uploads, so each test sees its own blob created. */
    public static byte[] uniqueBytes(int size) {
        byte[] bytes = new byte[size];
        new Random(System.nanoTime() ^ SEQUENCE.incrementAndGet()).nextBytes(bytes);
        return bytes;
    }

    public static String digestOf(byte[] bytes) {
        return "sha256:" + DigestUtils.sha256Hex(bytes);
    }

    /** The bytes' SHA-256 as a {@code Content-Digest} or {@code Repr-Digest} field value (RFC 9530). */
    public static String digestField(byte[] bytes) {
        return "sha-256=:" + Base64.getEncoder().encodeToString(DigestUtils.sha256(bytes)) + ":";
    }
}
