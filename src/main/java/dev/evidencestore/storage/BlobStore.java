package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Content-addressed, write-once byte storage. Every backend obeys the same contract, checked by one conformance
 * suite: bytes are hashed while they are written, become visible under their digest only when complete, durable
 * and matching the upload policy, and a second put of the same bytes is harmless. No operation changes or
 * removes stored bytes.
 */
public interface BlobStore {

    /**
     * Streams {@code content} into the store. Nothing is visible under any digest if the stream fails, exceeds
     * the size limit or disagrees with a declared digest.
     */
    StoredBlob put(InputStream content, UploadPolicy policy) throws IOException;

    /**
     * The most of one upload that this store holds in memory at a time, for admission to count before the body is
     * read: {@code declaredSize} is its framed size (a Content-Length), -1 when it has none, and {@code oneDigest}
     * whether it must hash to the one digest its client named. Never more than the declared size.
     */
    long heldOfUpload(long declaredSize, boolean oneDigest);

    /** {@code buffer}, or the declared size when that is smaller. */
    static long bufferUpTo(long declaredSize, long buffer) {
        return declaredSize >= 0 ? Math.min(declaredSize, buffer) : buffer;
    }

    /** The size of the stored blob, or empty when this store does not hold it. */
    OptionalLong size(Digest digest) throws IOException;

    /**
     * Reads {@code length} bytes from {@code offset} of a stored blob, streaming.
     *
     * @throws NoSuchFileException when the store does not hold the blob
     */
    InputStream open(Digest digest, long offset, long length) throws IOException;

    /**
     * Removes what interrupted uploads left behind (a process killed mid-stream) and nobody has touched for
     * {@code idle}; returns how many. Stores whose writes vanish with their transaction have nothing to remove.
     */
    default int removeAbandonedUploads(Duration idle) throws IOException {
        return 0;
    }

    /** Reads a whole stored blob. */
    default InputStream open(Digest digest) throws IOException {
        OptionalLong size = size(digest);
        if (size.isEmpty()) {
            throw new NoSuchFileException(digest.toString());
        }
        return open(digest, 0, size.getAsLong());
    }

    /**
     * Whether a whole download, hashed as it streams, is better read and hashed a block ahead on a second thread
     * while the request's thread sends ({@link ReadAhead}): so for a file, whose reading costs the service little.
     * Not for PostgreSQL's COPY, which the service decodes itself, nor for an S3 response, whose fetching (its TLS
     * decryption) is what the second thread takes over there, below the hashing (bench/run.sh, docs/operations.md).
     */
    default boolean hashesAheadOfSending() {
        return false;
    }

    /**
     * How many small blobs one batch upload should store at once, each on a thread of its own, while it reads its
     * next entries ({@code evidence.batch.items-in-flight} overrides it): enough that their waits on the store
     * overlap. More cost CPU where each write is its own work (a file and its fsyncs, an S3 request).
     */
    default int smallWritesAtOnce() {
        return 8;
    }

    /**
     * The store itself, past any copy kept in memory ({@link SmallBlobCache}): for reads that must look at the stored
     * bytes, such as the scrub and a reviewer's verification.
     */
    default BlobStore stored() {
        return this;
    }

    /**
     * The whole blob, when this store holds a checked copy of it in memory; empty otherwise, without reading
     * anything. The array is the store's own: callers only read it.
     */
    default Optional<byte[]> inMemory(Digest digest) {
        return Optional.empty();
    }
}
