package dev.evidencestore.storage;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The threads of the store's background work (writes behind an upload, parts sent to S3, reads ahead of a
 * verification, flushes to disk): daemons named after their work, as many at once as the uploads and reads that use
 * them, which admission bounds.
 */
final class StoreThreads {

    private StoreThreads() {
    }

    static ExecutorService named(String name) {
        return Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        });
    }
}
