package dev.evidencestore.cli;

import java.util.UUID;

/**
 * One key per logical write, sent with each of its retries, so that the service does the write at most once: an
 * RFC 8941 String, quoted, as docs/api.md asks of new clients.
 */
record IdempotencyKey(String value) {

    static IdempotencyKey fresh() {
        return new IdempotencyKey(UUID.randomUUID().toString());
    }

    String header() {
        return "\"" + value + "\"";
    }
}
