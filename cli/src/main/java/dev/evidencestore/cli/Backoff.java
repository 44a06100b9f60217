package dev.evidencestore.cli;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter (each wait drawn uniformly between zero and the doubling ceiling), so that
 * clients cut off together do not come back together; a {@code Retry-After} the service sent is a floor.
 */
final class Backoff {

    private final Duration base;
    private final Duration cap;
    private final int attempts;
    private final RandomGenerator random;

    Backoff(Duration base, Duration cap, int attempts, RandomGenerator random) {
        if (attempts < 1) {
            throw new IllegalArgumentException("at least one attempt is needed, not " + attempts);
        }
        this.base = base;
        this.cap = cap;
        this.attempts = attempts;
        this.random = random;
    }

    static Backoff standard(int attempts) {
        return new Backoff(Duration.ofMillis(250), Duration.ofSeconds(8), attempts, RandomGenerator.getDefault());
    }

    int attempts() {
        return attempts;
    }

    /** The ceiling of the wait after failed attempt {@code attempt} (1 for the first): base × 2^(attempt − 1). */
    Duration ceiling(int attempt) {
        int doublings = Math.min(attempt - 1, 30);
        long millis = base.toMillis() << doublings;
        return millis <= 0 || millis > cap.toMillis() ? cap : Duration.ofMillis(millis);
    }

    /** The wait after failed attempt {@code attempt}, at least {@code retryAfter}. */
    Duration delay(int attempt, Duration retryAfter) {
        long jittered = random.nextLong(ceiling(attempt).toMillis() + 1);
        return Duration.ofMillis(Math.max(jittered, retryAfter.toMillis()));
    }
}
