package dev.evidencestore.integrity;

import java.util.concurrent.TimeUnit;

/**
 * Holds a reader to a rate in bytes per second. After each read it pauses just long enough that everything read
 * since the start took at least {@code bytes / rate} seconds: pacing the running total rather than each read lets
 * slow stretches (a cold disk) be made up without ever exceeding the rate over the whole pass.
 */
final class ReadPace {

    private static final double NANOS_PER_SECOND = 1e9;

    private final long bytesPerSecond;
    private final long startNanos;
    private long bytes;

    ReadPace(long bytesPerSecond) {
        if (bytesPerSecond <= 0) {
            throw new IllegalArgumentException("a read rate must be positive, got " + bytesPerSecond);
        }
        this.bytesPerSecond = bytesPerSecond;
        this.startNanos = System.nanoTime();
    }

    /** Accounts for {@code n} more bytes and pauses as long as the rate asks; returns early when interrupted. */
    void read(long n) {
        bytes += n;
        long pause = pauseNanos(bytes, System.nanoTime() - startNanos, bytesPerSecond);
        if (pause > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(pause);
            } catch (InterruptedException e) {
                // the pass sees the flag at its next blob and stops there
                Thread.currentThread().interrupt();
            }
        }
    }

    long bytes() {
        return bytes;
    }

    /** How long to pause after reading {@code bytes} in {@code elapsedNanos} so as not to exceed the rate. */
    static long pauseNanos(long bytes, long elapsedNanos, long bytesPerSecond) {
        long due = (long) (bytes / (double) bytesPerSecond * NANOS_PER_SECOND);
        return Math.max(0, due - elapsedNanos);
    }
}
