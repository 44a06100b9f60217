package dev.evidencestore.integrity;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The scrub's rate limit as arithmetic: how long to pause after reading so much in so long. */
class ReadPaceTest {

    private static final long MIB = 1024 * 1024;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void pausesUntilTheBytesReadTookTheirShareOfTime() {
        assertEquals(SECOND, ReadPace.pauseNanos(64 * MIB, 0, 64 * MIB));
        assertEquals(SECOND / 2, ReadPace.pauseNanos(32 * MIB, 0, 64 * MIB));
        assertEquals(SECOND / 4, ReadPace.pauseNanos(48 * MIB, SECOND / 2, 64 * MIB));
    }

    @Test
    void doesNotPauseWhenReadingWasSlowerThanTheRate() {
        assertEquals(0, ReadPace.pauseNanos(64 * MIB, SECOND, 64 * MIB));
        assertEquals(0, ReadPace.pauseNanos(64 * MIB, 3 * SECOND, 64 * MIB));
        assertEquals(0, ReadPace.pauseNanos(0, 0, 64 * MIB));
    }

    @Test
    void slowStretchesAreMadeUpOnTheRunningTotal() {
        // 1 MiB/s: three slow seconds read only 1 MiB, so 2 MiB more may go by at once, and only beyond that a pause
        assertEquals(0, ReadPace.pauseNanos(3 * MIB, 3 * SECOND, MIB));
        assertEquals(SECOND, ReadPace.pauseNanos(4 * MIB, 3 * SECOND, MIB));
    }

    @Test
    void aTebibyteAtTheDefaultRateTakesFourAndAHalfHoursWithoutOverflow() {
        assertEquals(16_384 * SECOND, ReadPace.pauseNanos(1024 * 1024 * MIB, 0, 64 * MIB));
    }

    @Test
    void refusesARateThatIsNotPositive() {
        assertThrows(IllegalArgumentException.class, () -> new ReadPace(0));
    }
}
