package dev.evidencestore.cluster;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * Work this instance does in the background (a scrub pass, a scheduled checkpoint) that its shutdown waits for: the
 * database pool and Hibernate close after the shutdown event, and work still running then failed with errors.
 */
public final class InstanceWork {

    /** How long the shutdown waits for work under way; after that it goes on, and the work fails as before. */
    public static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final ReentrantLock running = new ReentrantLock();
    private volatile boolean stopping;

    /** Whether the instance is stopping: work under way should end at its next step, and none should start. */
    public boolean stopping() {
        return stopping;
    }

    /** Runs {@code work} now, on this thread; the shutdown waits for it. */
    public <T> T call(Supplier<T> work) {
        running.lock();
        try {
            return work.get();
        } finally {
            running.unlock();
        }
    }

    /** Runs {@code work} unless the instance is stopping. */
    public void runUnlessStopping(Runnable work) {
        call(() -> {
            if (!stopping) {
                work.run();
            }
            return null;
        });
    }

    /** From the shutdown: no more work starts, and work under way is waited for, at most {@link #STOP_WAIT}. */
    public void stop() {
        stopping = true;
        try {
            if (running.tryLock(STOP_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                running.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
