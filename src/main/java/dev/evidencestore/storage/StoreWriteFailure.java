package dev.evidencestore.storage;

import java.io.IOException;

/**
 * A blob store that could not write what it was given; nothing was stored. The client did nothing wrong, and a
 * retry may succeed: once space is freed ({@link StoreFull}) or the store recovers ({@link StoreUnavailable}).
 */
public abstract sealed class StoreWriteFailure extends IOException permits StoreFull, StoreUnavailable {

    StoreWriteFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** A failed write as the operating system reported it: ENOSPC and EDQUOT are a full store, the rest a failing one. */
    public static StoreWriteFailure of(String store, IOException failure) {
        String message = failure.getMessage();
        boolean full = message != null
                && (message.contains("No space left on device") || message.contains("Disk quota exceeded"));
        return full ? new StoreFull(store + " has no space left", failure)
                : new StoreUnavailable(store + " failed to write", failure);
    }
}
