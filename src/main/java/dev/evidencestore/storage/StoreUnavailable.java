package dev.evidencestore.storage;

/** The store failed to write the upload, for a reason other than space: a failing disk, a lost database or S3. */
public final class StoreUnavailable extends StoreWriteFailure {

    StoreUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
