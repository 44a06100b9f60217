package dev.evidencestore.api;

import dev.evidencestore.domain.Refusal;
import dev.evidencestore.storage.StoredBlob;
import dev.evidencestore.storage.WorkerFailure;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The items of one batch whose bytes are durable, waiting to be bound: a group of them at a time, in one
 * transaction, so that a commit and each statement's round trip serve many items instead of one. A full group is
 * bound on another thread while the request's thread reads and stores the next items (measured: the request's
 * thread spent 40% of a batch binding, with no item being stored meanwhile); one group binds at a time, in order.
 */
final class ReceivedItems {

    /** An item whose bytes were received: stored as {@code blob}, or refused before binding (wrong digest, size). */
    record Received(ArtifactBatch.Pending item, StoredBlob blob, Refusal refusal) {

        static Received stored(ArtifactBatch.Pending item, StoredBlob blob) {
            return new Received(item, blob, null);
        }

        static Received refused(ArtifactBatch.Pending item, Refusal refusal) {
            return new Received(item, null, refusal);
        }
    }

    private final int groupSize;
    private final Executor executor;
    private final Consumer<List<Received>> binder;
    private final List<Received> group = new ArrayList<>();
    private CompletableFuture<Void> binding = CompletableFuture.completedFuture(null);

    /** {@code executor} must carry the request's context: the binder records the request's audit entries. */
    ReceivedItems(int groupSize, Executor executor, Consumer<List<Received>> binder) {
        this.groupSize = Math.max(1, groupSize);
        this.executor = executor;
        this.binder = binder;
    }

    /**
     * Adds an item; a full group starts binding once the group before it has. A group that failed to bind fails
     * the batch here, at the next full group, or in {@link #bind()}.
     */
    void add(Received item) {
        group.add(item);
        if (group.size() >= groupSize) {
            bindBehind();
        }
    }

    /** Binds the items still waiting and returns when every group is bound, so nothing binds after the answer. */
    void bind() {
        bindBehind();
        awaitBinding();
    }

    private void bindBehind() {
        if (group.isEmpty()) {
            return;
        }
        List<Received> taken = List.copyOf(group);
        group.clear();
        awaitBinding();
        binding = CompletableFuture.runAsync(() -> binder.accept(taken), executor);
    }

    /** Waits for the group binding now; its failure is thrown once, so a later call does not throw it again. */
    private void awaitBinding() {
        CompletableFuture<Void> current = binding;
        binding = CompletableFuture.completedFuture(null);
        try {
            current.join();
        } catch (CompletionException failed) {
            // a binder throws only unchecked failures, which WorkerFailure throws as they are
            throw new UncheckedIOException(WorkerFailure.rethrown(failed.getCause(), "a group could not be bound"));
        }
    }
}
