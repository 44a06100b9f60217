package dev.evidencestore.storage;

/** The store has no space left for the upload. */
public final class StoreFull extends StoreWriteFailure {

    StoreFull(String message, Throwable cause) {
        super(message, cause);
    }
}
