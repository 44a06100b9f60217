package dev.evidencestore.preview;

import java.nio.charset.StandardCharsets;

/**
 * The first bytes of a blob, as many as a preview may read, and how many the whole blob has. A preview of a
 * prefix shows what the bytes say; whether they are the stored evidence is the digest's business.
 */
public record Prefix(byte[] bytes, long total) {

    public boolean truncated() {
        return bytes.length < total;
    }

    /** The bytes as UTF-8 text; when they stop short of the whole blob, only up to their last complete line. */
    public String text() {
        int end = bytes.length;
        if (truncated()) {
            while (end > 0 && bytes[end - 1] != '\n') {
                end--;
            }
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }
}
