package dev.evidencestore.api;

import dev.evidencestore.domain.Refusal;
import dev.evidencestore.storage.StoredBlob;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The items of one batch whose bytes are durable, waiting to be bound: a group of them at a time, in one
 * transaction, so that a commit and each statement's round trip serve many items instead of one.
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
    private final Consumer<List<Received>> binder;
    private final List<Received> group = new ArrayList<>();

    ReceivedItems(int groupSize, Consumer<List<Received>> binder) {
        this.groupSize = Math.max(1, groupSize);
        this.binder = binder;
    }

    /** Adds an item, binding the group once it is full. */
    void add(Received item) {
        group.add(item);
        if (group.size() >= groupSize) {
            bind();
        }
    }

    /** Binds the items still waiting. */
    void bind() {
        if (group.isEmpty()) {
            return;
        }
        List<Received> taken = List.copyOf(group);
        group.clear();
        binder.accept(taken);
    }
}
