package dev.evidencestore.service;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.integrity.BlobIntegrity;
import dev.evidencestore.storage.BlobStore;
import dev.evidencestore.storage.DamagedBlob;
import dev.evidencestore.storage.ReadAhead;

import java.io.IOException;
import java.io.InputStream;

/** Stored bytes ready to be served: what they are, and a way to stream them whole (checked) or any range of them. */
public record BlobContent(Digest digest, long size, String mediaType, BlobStore store, BlobIntegrity integrity) {

    private static final long READ_AHEAD_FROM = 1024 * 1024;

    /** A byte range as stored: a part alone cannot be checked against the digest of the whole. */
    public InputStream open(long offset, long length) throws IOException {
        return store.open(digest, offset, length);
    }

    /**
     * The whole blob, hashed as it streams: bytes that no longer match the digest are recorded as damaged, and the
     * stream fails with {@link DamagedBlob} before it hands out their last bytes. Past {@link #READ_AHEAD_FROM} a
     * second thread works a block ahead: where the store gains by it (files) it reads and hashes while the caller
     * sends; otherwise it fetches (an S3 response, decrypted) while the caller hashes and sends, and a store that
     * fetches ahead itself (PostgreSQL's COPY) is read as it is. A smaller blob is sent before a second thread would
     * pay.
     */
    public InputStream openChecked() throws IOException {
        if (size <= READ_AHEAD_FROM) {
            return integrity.openChecked(digest, size, "a download");
        }
        return store.hashesAheadOfSending()
                ? new ReadAhead(integrity.openChecked(digest, size, "a download"), size)
                : integrity.openCheckedFetchingAhead(digest, size, "a download");
    }
}
