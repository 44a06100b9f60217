package dev.evidencestore.storage;

/** The store takes no more uploads right now; a retry after {@code retryAfterSeconds} may succeed. */
public final class StoreBusy extends RuntimeException {

    private final int retryAfterSeconds;

    public StoreBusy(String reason, int retryAfterSeconds) {
        super(reason, null, false, false);
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
