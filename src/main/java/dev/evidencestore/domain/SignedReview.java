package dev.evidencestore.domain;

import java.time.Instant;

/**
 * The signed statement of one review decision: the decided record's ID, the decision and its time, the audit log leaf
 * of the review's entry, the key that signed it (hex C2SP key hash) and the DSSE envelope's JSON, byte for byte.
 */
public record SignedReview(String record, Decision decision, Instant reviewedAt, long leafIndex, String keyId,
                           String envelope) {
}
