package dev.evidencestore.audit;

import java.time.Duration;
import java.time.Instant;

/**
 * Fixed windows of time, aligned to the epoch, in which unauthenticated writes are counted per client address and
 * their refusals aggregated: the limit and the aggregates agree on where a window ends because both count so.
 */
public record RateWindow(Duration length) {

    public RateWindow {
        if (length.toMillis() < 1) {
            throw new IllegalArgumentException("a rate window lasts at least a millisecond: " + length);
        }
    }

    /** The number of the window {@code at} falls in. */
    public long index(Instant at) {
        return Math.floorDiv(at.toEpochMilli(), length.toMillis());
    }

    /** When window {@code index} ends and the next begins. */
    public Instant end(long index) {
        return Instant.ofEpochMilli((index + 1) * length.toMillis());
    }

    /** Whole seconds from {@code at} until its window ends, at least one: what a Retry-After says. */
    public long secondsLeft(Instant at) {
        long millis = end(index(at)).toEpochMilli() - at.toEpochMilli();
        return Math.max(1, (millis + 999) / 1000);
    }
}
