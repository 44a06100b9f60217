package dev.evidencestore.audit;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** A time by which something awaited on a monitor must have happened. */
final class Deadline {

    private final long nanos;

    private Deadline(long nanos) {
        this.nanos = nanos;
    }

    static Deadline after(Duration timeout) {
        return new Deadline(System.nanoTime() + timeout.toNanos());
    }

    /**
     * Waits on {@code monitor}, which the caller holds and whose state changes are notified, until {@code done} or
     * this deadline; false when the deadline passed first, or the thread was interrupted (its flag set again).
     */
    boolean await(Object monitor, BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            long left = nanos - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            try {
                monitor.wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
