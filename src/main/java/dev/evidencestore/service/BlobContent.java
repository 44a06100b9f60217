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
     * stream fails with {@link DamagedBlob} before it hands out their last bytes. Past {@link #READ_AHEAD_FROM}, and
     * where the store gains by it, the store is read and hashed a block ahead on another thread while the caller
     * sends, so that hashing and sending run on two cores; a smaller blob is sent before a second thread would pay.
     */
    public InputStream openChecked() throws IOException {
        InputStream checked = integrity.openChecked(digest, size, "a download");
        return size > READ_AHEAD_FROM && store.hashesAheadOfSending() ? new ReadAhead(checked, size) : checked;
    }
}
