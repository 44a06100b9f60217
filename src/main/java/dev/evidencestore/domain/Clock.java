package dev.evidencestore.domain;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Timestamps at the precision PostgreSQL keeps, so what a write returns equals what a later read returns. */
public final class Clock {

    private Clock() {
    }

    public static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }
}
