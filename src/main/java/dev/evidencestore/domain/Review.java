package dev.evidencestore.domain;

import java.time.Instant;

/** A reviewer's kept decision on a finding or a root cause. */
public record Review(Decision decision, String note, Instant reviewedAt, String reviewedBy) {
}
