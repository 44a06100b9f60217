package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import java.util.Set;

/**
 * What an upload must satisfy before its bytes become visible: every digest the client declared must equal the
 * digest computed while streaming, and the size must stay within the limit. {@code declaredSize} is the size the
 * client announced (Content-Length, a tar entry's size), or -1 when it did not: it only sizes buffers, as the
 * bytes themselves are counted and checked as they stream.
 */
public record UploadPolicy(Set<Digest> expected, long maxSize, long declaredSize) {

    public UploadPolicy {
        expected = Set.copyOf(expected);
    }

    public UploadPolicy(Set<Digest> expected, long maxSize) {
        this(expected, maxSize, -1);
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

    /** The buffer to read an upload's first block into ({@link FirstBlock}), by its declared size. */
    public int firstBlock(int blockSize) {
        return FirstBlock.size(declaredSize, blockSize);
    }

    public BlobTooLarge tooLarge() {
        return new BlobTooLarge(maxSize);
    }
}
