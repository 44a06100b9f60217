package dev.evidencestore.service;

import dev.evidencestore.storage.StoredBlob;

/** The outcome of an upload: the blob, and whether this upload stored it first. */
public record BlobIngest(StoredBlob blob, boolean created) {
}
