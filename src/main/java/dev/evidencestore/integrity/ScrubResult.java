package dev.evidencestore.integrity;

/** What one scrub pass did: blobs re-hashed, bytes read, and how many of those blobs were damaged. */
public record ScrubResult(long blobs, long bytes, long damaged) {
}
