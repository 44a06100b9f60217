package dev.evidencestore.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/**
 * How long after the start of impact something happened, in whole minutes, as an incident chronology writes it:
 * {@code +00m}, {@code +05m}, {@code +128m}, and {@code -05m} for what came before.
 */
public record Elapsed(long minutes) {

    /** Floored, so 4m30s before the start is {@code -05m}, not {@code -04m}; null when impact has no start. */
    public static Elapsed between(Instant impactStart, Instant at) {
        if (impactStart == null) {
            return null;
        }
        // Duration keeps its nanos non-negative, so getSeconds() is floored; floorDiv (unlike /) floors negatives too
        return new Elapsed(Math.floorDiv(Duration.between(impactStart, at).getSeconds(), 60));
    }

    @Override
    public String toString() {
        return (minutes < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02dm", Math.abs(minutes));
    }
}
