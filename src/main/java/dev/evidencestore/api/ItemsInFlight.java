package dev.evidencestore.api;

import dev.evidencestore.storage.WorkerFailure;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;

/**
 * The small items of one batch whose bytes have been read and are being made durable on other threads, at most
 * {@code limit} at once, while the request's thread reads the next entries: their waits on the disk overlap instead
 * of adding up. Results are handed to the sink on the request's thread, in the order the items started; closing
 * waits for every item still under way, so nothing is left running when the answer, or the failure, is sent.
 */
final class ItemsInFlight<T> implements AutoCloseable {

    private final Executor executor;
    private final int limit;
    private final Consumer<T> sink;
    private final Deque<FutureTask<T>> underWay = new ArrayDeque<>();

    ItemsInFlight(Executor executor, int limit, Consumer<T> sink) {
        this.executor = executor;
        this.limit = Math.max(1, limit);
        this.sink = sink;
    }

    /** Starts an item, first waiting for the oldest one when {@code limit} are under way. */
    void start(Callable<T> item) throws IOException {
        while (underWay.size() >= limit) {
            finishOldest();
        }
        FutureTask<T> task = new FutureTask<>(item);
        underWay.add(task);
        executor.execute(task);
    }

    /** Waits for every item under way and hands over their results; the first failure is thrown at once. */
    void finishAll() throws IOException {
        while (!underWay.isEmpty()) {
            finishOldest();
        }
    }

    /**
     * After a fault: waits for every item still under way and hands over the results of those that succeeded, so
     * that what was made durable before the fault is still bound.
     */
    void settle() {
        while (!underWay.isEmpty()) {
            try {
                sink.accept(awaitUninterruptibly(underWay.poll()));
            } catch (ExecutionException ignored) {
                // the batch already fails for another reason; this item is left out of the answer with the rest
            }
        }
    }

    private void finishOldest() throws IOException {
        try {
            sink.accept(awaitUninterruptibly(underWay.poll()));
        } catch (ExecutionException failed) {
            // what a lone upload would have failed with (the store gone): the whole batch fails
            throw WorkerFailure.rethrown(failed.getCause(), "an item could not be stored");
        }
    }

    /** Waits for what is still under way without taking its results. */
    @Override
    public void close() {
        for (FutureTask<T> item : underWay) {
            try {
                awaitUninterruptibly(item);
            } catch (ExecutionException ignored) {
                // the batch already fails for another reason
            }
        }
        underWay.clear();
    }

    private static <T> T awaitUninterruptibly(FutureTask<T> task) throws ExecutionException {
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
