package dev.evidencestore.api;

import dev.evidencestore.domain.Refusal;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** RFC 3339 timestamps on the wire: an explicit offset is required, so no time is ever guessed. */
final class Timestamps {

    private Timestamps() {
    }

    /** PostgreSQL's timestamptz spans far more, but evidence is from years 1 to 9999; beyond that is a typo. */
    private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

    static Instant parse(String text) {
        try {
            Instant at = OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
            if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
                throw Refusal.invalid("timestamp", "must lie between the years 0001 and 9999");
            }
            return at;
        } catch (DateTimeParseException e) {
            throw Refusal.invalid("timestamp", "must be an RFC 3339 date-time with offset, e.g. 2026-06-18T09:00:00Z");
        }
    }
}
