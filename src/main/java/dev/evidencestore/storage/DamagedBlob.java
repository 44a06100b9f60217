package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import java.io.IOException;

/** Stored bytes that no longer hash to the digest they are stored under. */
public final class DamagedBlob extends IOException {

    private final Digest digest;
    private final Digest computed;

    public DamagedBlob(Digest digest, Digest computed) {
        super("the stored bytes of " + digest + " hash to " + computed + ", not to their digest");
        this.digest = digest;
        this.computed = computed;
    }

    public Digest digest() {
        return digest;
    }

    /** What the bytes as read hash to. */
    public Digest computed() {
        return computed;
    }
}
