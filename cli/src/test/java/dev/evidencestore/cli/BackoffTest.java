package dev.evidencestore.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackoffTest {

    private final Backoff backoff = new Backoff(Duration.ofMillis(250), Duration.ofSeconds(8), 6,
            new SplittableRandom(7));

    @Test
    void theCeilingDoublesFromTheBaseUpToTheCap() {
        assertEquals(Duration.ofMillis(250), backoff.ceiling(1));
        assertEquals(Duration.ofMillis(500), backoff.ceiling(2));
        assertEquals(Duration.ofSeconds(4), backoff.ceiling(5));
        assertEquals(Duration.ofSeconds(8), backoff.ceiling(6));
        assertEquals(Duration.ofSeconds(8), backoff.ceiling(60));
    }

    @Test
    void eachDelayIsJitteredBetweenZeroAndTheCeiling() {
        long distinct = IntStream.range(0, 200).mapToLong(i -> backoff.delay(4, Duration.ZERO)
                .toMillis()).peek(millis -> assertTrue(millis >= 0 && millis <= 2000, millis + " ms")).distinct()
                .count();
        assertTrue(distinct > 50, "jittered, not fixed: " + distinct + " distinct delays of 200");
    }

    @Test
    void aRetryAfterIsAFloor() {
        for (int i = 0; i < 50; i++) {
            assertTrue(backoff.delay(1, Duration.ofSeconds(1)).toMillis() >= 1000);
        }
    }

    @Test
    void atLeastOneAttempt() {
        assertThrows(IllegalArgumentException.class, () -> new Backoff(Duration.ofMillis(1), Duration.ofMillis(2), 0,
                new SplittableRandom()));
    }
}
