package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import java.util.Set;

/**
 * What an upload must satisfy before its bytes become visible: every digest the client declared must equal the
 * digest computed while streaming, and the size must stay within the limit.
 */
public record UploadPolicy(Set<Digest> expected, long maxSize) {

    public UploadPolicy {
        expected = Set.copyOf(expected);
    }

    public static UploadPolicy unchecked(long maxSize) {
        return new UploadPolicy(Set.of(), maxSize);
    }

    /** Refuses the upload when a declared digest disagrees with the bytes. */
    public void check(StoredBlob computed) {
        for (Digest declared : expected) {
            if (!declared.equals(computed.digest())) {
                throw new DigestMismatch(declared, computed.digest(), computed.size());
            }
        }
    }

    public BlobTooLarge tooLarge() {
        return new BlobTooLarge(maxSize);
    }
}
