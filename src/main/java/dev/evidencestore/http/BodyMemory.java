package dev.evidencestore.http;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The heap that request bodies may hold at once ({@code evidence.http.admission.body-memory}). A request takes its
 * share before its body is read, by what it declares, and gives it back when it ends; a request that does not fit
 * is refused, so concurrent large bodies get 503 instead of an OutOfMemoryError.
 */
final class BodyMemory {

    /**
     * Heap per byte of a JSON body while it is handled: Jackson's text buffer and the strings it makes, the entity,
     * and the answer, which echoes most of it. Measured by faults/cases/bodies.sh with -Xmx128m.
     */
    static final int JSON_WEIGHT = 4;
    /** A keyed JSON body is read whole once more, for its fingerprint, before it is parsed. */
    static final int KEYED_JSON_WEIGHT = JSON_WEIGHT + 1;
    /** Vert.x hands an upload to its stream in chunks of quarkus.http.limits.max-chunk-size; about two are queued. */
    static final long UPLOAD_NETWORK_BUFFERS = 2L * 256 * 1024;

    private final long budget;
    private final long maxJsonBody;
    private final AtomicLong taken = new AtomicLong();

    /** @param maxJsonBody the largest JSON body: the share of a body that declares no length */
    BodyMemory(long budget, long maxJsonBody) {
        this.budget = budget;
        this.maxJsonBody = maxJsonBody;
    }

    /**
     * The share of a body other than an upload, by its declared length ({@code -1} for none, a chunked body, which
     * may grow to the largest JSON body); 0 without a body.
     */
    long bodyShare(long declared, boolean chunked, boolean keyed) {
        long size = declared >= 0 ? Math.min(declared, maxJsonBody) : chunked ? maxJsonBody : 0;
        return size * (keyed ? KEYED_JSON_WEIGHT : JSON_WEIGHT);
    }

    /** The share of an upload: what the blob store holds of it ({@code held}), and the network's chunks. */
    long uploadShare(long held) {
        return held + UPLOAD_NETWORK_BUFFERS;
    }

    /** Takes {@code share}, if it fits beside what requests in progress hold. */
    boolean take(long share) {
        if (share == 0) {
            return true;
        }
        long now;
        do {
            now = taken.get();
            if (now + share > budget) {
                return false;
            }
        } while (!taken.compareAndSet(now, now + share));
        return true;
    }

    void give(long share) {
        taken.addAndGet(-share);
    }

    /** What requests in progress hold. */
    long taken() {
        return taken.get();
    }

    long budget() {
        return budget;
    }
}
