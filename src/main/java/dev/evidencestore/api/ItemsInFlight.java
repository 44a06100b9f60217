package dev.evidencestore.api;

import dev.evidencestore.storage.WorkerFailure;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.function.BiConsumer;

/**
 * The small items of one batch whose bytes have been read and which are being stored and bound on other threads,
 * at most {@code limit} at once, while the request's thread reads the next entries. Each item's bytes are made
 * durable and its transaction committed on its own, so their waits on the disk and the database overlap instead of
 * adding up. Results are handed to the sink on the request's thread; closing waits for every item still under way,
 * so nothing is left running when the answer, or the failure, is sent.
 */
final class ItemsInFlight implements AutoCloseable {

    private record Item(String path, FutureTask<ArtifactBatchResult> task) {
    }

    private final Executor executor;
    private final int limit;
    private final BiConsumer<String, ArtifactBatchResult> sink;
    private final Deque<Item> underWay = new ArrayDeque<>();

    ItemsInFlight(Executor executor, int limit, BiConsumer<String, ArtifactBatchResult> sink) {
        this.executor = executor;
        this.limit = Math.max(1, limit);
        this.sink = sink;
    }

    /** Starts an item, first waiting for the oldest one when {@code limit} are under way. */
    void start(String path, Callable<ArtifactBatchResult> item) throws IOException {
        while (underWay.size() >= limit) {
            finishOldest();
        }
        FutureTask<ArtifactBatchResult> task = new FutureTask<>(item);
        underWay.add(new Item(path, task));
        executor.execute(task);
    }

    /** Waits for every item under way and hands over their results; the first failure is thrown after all ended. */
    void finishAll() throws IOException {
        while (!underWay.isEmpty()) {
            finishOldest();
        }
    }

    private void finishOldest() throws IOException {
        Item oldest = underWay.peek();
        try {
            sink.accept(oldest.path(), awaitUninterruptibly(oldest.task()));
        } catch (ExecutionException failed) {
            // what a lone upload would have failed with (the store or the database gone): the whole batch fails
            close();
            throw WorkerFailure.rethrown(failed.getCause(), "an item could not be stored");
        } finally {
            underWay.remove(oldest);
        }
    }

    /** Waits for what is still under way without taking its results: their items committed, or did not, alone. */
    @Override
    public void close() {
        for (Item item : underWay) {
            try {
                awaitUninterruptibly(item.task());
            } catch (ExecutionException ignored) {
                // the batch already fails for another reason; this item's own outcome is in its audit entry
            }
        }
    }

    private static ArtifactBatchResult awaitUninterruptibly(FutureTask<ArtifactBatchResult> task)
            throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
