package dev.evidencestore.service;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.integrity.BlobIntegrity;
import dev.evidencestore.storage.BlobStore;
import dev.evidencestore.storage.DamagedBlob;

import java.io.IOException;
import java.io.InputStream;

/** Stored bytes ready to be served: what they are, and a way to stream them whole (checked) or any range of them. */
public record BlobContent(Digest digest, long size, String mediaType, BlobStore store, BlobIntegrity integrity) {

    /** A byte range as stored: a part alone cannot be checked against the digest of the whole. */
    public InputStream open(long offset, long length) throws IOException {
        return store.open(digest, offset, length);
    }

    /**
     * The whole blob, hashed as it streams: bytes that no longer match the digest are recorded as damaged, and the
     * stream fails with {@link DamagedBlob} before it hands out their last bytes.
     */
    public InputStream openChecked() throws IOException {
        return integrity.openChecked(digest, size, "a download");
    }
}
