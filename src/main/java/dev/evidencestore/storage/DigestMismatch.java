package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

/** The uploaded bytes hash to {@code computed}, not to the digest the client declared; nothing was stored. */
public final class DigestMismatch extends RuntimeException {

    private final Digest declared;
    private final Digest computed;
    private final long size;

    public DigestMismatch(Digest declared, Digest computed, long size) {
        super("the uploaded bytes have digest " + computed + ", not the declared " + declared, null, false, false);
        this.declared = declared;
        this.computed = computed;
        this.size = size;
    }

    public Digest declared() {
        return declared;
    }

    public Digest computed() {
        return computed;
    }

    public long size() {
        return size;
    }
}
