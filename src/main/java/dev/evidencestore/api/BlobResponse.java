package dev.evidencestore.api;

import dev.evidencestore.storage.StoredBlob;

public record BlobResponse(String digest, long size) {

    static BlobResponse of(StoredBlob blob) {
        return new BlobResponse(blob.digest().toString(), blob.size());
    }
}
