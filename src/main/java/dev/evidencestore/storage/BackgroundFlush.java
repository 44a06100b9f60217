package dev.evidencestore.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;

/**
 * Flushes a file being written to disk in the background, each time another {@code every} bytes have been written,
 * so that the disk writes while the upload still streams and the fsync at its end has little left to do. The
 * kernel would otherwise keep the whole upload in the page cache until that fsync. One flush runs at a time.
 */
final class BackgroundFlush {

    private static final ExecutorService FLUSHERS = StoreThreads.named("file-flush");

    private final FileChannel file;
    private final long every;
    private long unflushed;
    private CompletableFuture<Void> running = CompletableFuture.completedFuture(null);

    BackgroundFlush(FileChannel file, long every) {
        this.file = file;
        this.every = every;
    }

    /** Counts {@code length} more bytes written; starts a flush when enough are waiting and none is running. */
    void written(long length) {
        unflushed += length;
        if (unflushed >= every && running.isDone()) {
            unflushed = 0;
            running = CompletableFuture.runAsync(() -> {
                try {
                    file.force(false);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, FLUSHERS);
        }
    }

    /** Waits for the running flush; its failure is the upload's. */
    void finish() throws IOException {
        try {
            running.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException failed) {
                throw failed.getCause();
            }
            throw e;
        }
    }

    /** Before the file is closed: no flush may still be running on it. */
    void quiesce() {
        try {
            running.join();
        } catch (CompletionException e) {
            // the upload is failing already, or finish() reported this
        }
    }
}
