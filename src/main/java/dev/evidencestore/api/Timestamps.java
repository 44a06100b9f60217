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

    static Instant parse(String text) {
        try {
            return OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant();
        } catch (DateTimeParseException e) {
            throw Refusal.invalid("timestamp", "must be an RFC 3339 date-time with offset, e.g. 2026-06-18T09:00:00Z");
        }
    }
}
