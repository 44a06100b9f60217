package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import java.util.UUID;

/**
 * Where the s3 backend keeps things in its bucket: blobs under {@code prefix sha256/ab/abcd…}, uploads in progress
 * apart under {@code prefix uploads/}, so nothing under a digest key is ever partial.
 */
record BucketLayout(String bucket, String prefix) {

    /** Where a blob lives; the digest is already validated, so the key is always well-formed. */
    String blobKey(Digest digest) {
        String hex = digest.hex();
        return blobs() + hex.substring(0, 2) + "/" + hex;
    }

    String blobs() {
        return prefix + "sha256/";
    }

    String uploads() {
        return prefix + "uploads/";
    }

    /** A staging key of its own for one upload, so concurrent uploads of the same bytes never meet. */
    String newStagingKey() {
        return uploads() + UUID.randomUUID();
    }
}
