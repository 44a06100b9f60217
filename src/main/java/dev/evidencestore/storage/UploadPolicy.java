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

    /**
     * The buffer to read an upload's first block into: a whole block, or one byte more than the declared size when
     * that is smaller, so that a 10 KiB upload neither allocates nor zeroes a block of 256 KiB or 1 MiB, and its end
     * is still seen as a block short of full.
     */
    public int firstBlock(int blockSize) {
        return declaredSize >= 0 && declaredSize < blockSize ? (int) declaredSize + 1 : blockSize;
    }

    public BlobTooLarge tooLarge() {
        return new BlobTooLarge(maxSize);
    }
}
