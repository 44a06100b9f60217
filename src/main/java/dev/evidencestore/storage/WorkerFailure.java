package dev.evidencestore.storage;

import java.io.IOException;

/**
 * The failure of a task run on another thread (a block written behind an upload, a part sent to S3, an item of a
 * batch), thrown on the thread that waited for it as if it had failed there: whoever handles the upload's failures
 * tells a store's IOException from a bug by its type, which the ExecutionException around it would hide.
 */
public final class WorkerFailure {

    private WorkerFailure() {
    }

    /**
     * The IOException to throw for {@code cause}, what an ExecutionException carries: the cause itself when it is one;
     * an unchecked cause is thrown from here as it is; any other is wrapped, with {@code what} as the message.
     */
    public static IOException rethrown(Throwable cause, String what) {
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException(what, cause);
    }
}
