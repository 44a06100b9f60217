package dev.evidencestore.domain;

import java.time.Instant;
import java.util.List;

/**
 * One write-once entry of an incident's timeline. {@code elapsed} is relative to the incident's impact start as it
 * is now, so it follows corrections of that start; it is null while the start is unknown.
 */
public record TimelineEntry(
        SequenceId id,
        Instant at,
        Elapsed elapsed,
        String event,
        List<TimelineCitation> citations,
        Instant createdAt,
        String createdBy) {

    public TimelineEntry {
        citations = List.copyOf(citations);
    }
}
