package dev.evidencestore.http;

import java.util.UUID;

/**
 * A key this request holds while it runs, under its {@code principal} (in the form records keep); {@code lease} tells
 * it from a retry that took over an abandoned key.
 */
record HeldKey(String principal, IdempotencyKey key, UUID lease) {
}
