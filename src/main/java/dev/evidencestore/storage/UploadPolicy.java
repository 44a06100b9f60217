package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import java.util.Set;

/**
 * What an upload must satisfy before its bytes become visible: every digest the client declared must equal the
 * digest computed while streaming, and the size must stay within the limit. {@code declaredSize} is the size the
 * client announced (Content-Length, a tar entry's size), or -1 when it did not; the bytes themselves are counted
 * and checked as they stream. A size that is only announced sizes buffers. An {@code exact} one was framed by the
 * transport (an HTTP Content-Length, a tar entry's header), so that a body of any other size fails reading anyway:
 * a store may then send the blob ahead as one request of that size ({@link StreamedPutBody}).
 */
public record UploadPolicy(Set<Digest> expected, long maxSize, long declaredSize, boolean exact) {

    public UploadPolicy {
        expected = Set.copyOf(expected);
        if (exact && declaredSize < 0) {
            throw new IllegalArgumentException("an exact size cannot be unknown");
        }
    }

    public UploadPolicy(Set<Digest> expected, long maxSize, long declaredSize) {
        this(expected, maxSize, declaredSize, false);
    }

    public UploadPolicy(Set<Digest> expected, long maxSize) {
        this(expected, maxSize, -1);
    }

    /** A body whose transport ends it at exactly {@code size} bytes or fails it. */
    public static UploadPolicy framed(Set<Digest> expected, long maxSize, long size) {
        return new UploadPolicy(expected, maxSize, size, true);
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
