package dev.evidencestore.storage;

/** An upload went past the size limit; nothing was stored. */
public final class BlobTooLarge extends RuntimeException {

    private final long maxSize;

    public BlobTooLarge(long maxSize) {
        super("blobs are limited to " + maxSize + " bytes", null, false, false);
        this.maxSize = maxSize;
    }

    public long maxSize() {
        return maxSize;
    }
}
