package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

/** Bytes a backend holds durably, named by their SHA-256 digest. */
public record StoredBlob(Digest digest, long size) {
}
