package dev.evidencestore.domain;

import java.time.Instant;

/**
 * What checks of the stored bytes have found across the whole store: blobs stored, blobs checked at least once,
 * blobs damaged at their last check, and when the last complete scrub pass finished (null before the first).
 */
public record IntegrityTotals(long blobs, long blobsChecked, long damagedBlobs, Instant lastScrub) {
}
