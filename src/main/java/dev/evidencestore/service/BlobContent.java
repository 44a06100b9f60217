package dev.evidencestore.service;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.storage.BlobStore;

import java.io.IOException;
import java.io.InputStream;

/** Stored bytes ready to be served: what they are, and a way to stream any range of them. */
public record BlobContent(Digest digest, long size, String mediaType, BlobStore store) {

    public InputStream open(long offset, long length) throws IOException {
        return store.open(digest, offset, length);
    }
}
