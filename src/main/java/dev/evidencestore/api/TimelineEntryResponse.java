package dev.evidencestore.api;

import dev.evidencestore.domain.TimelineEntry;

import java.time.Instant;
import java.util.List;

public record TimelineEntryResponse(
        String id,
        Instant at,
        String elapsed,
        String event,
        List<TimelineCitationResponse> citations,
        Instant createdAt,
        String createdBy) {

    static TimelineEntryResponse of(TimelineEntry entry) {
        String elapsed = entry.elapsed() == null ? null : entry.elapsed().toString();
        return new TimelineEntryResponse(entry.id().toString(), entry.at(), elapsed, entry.event(),
                entry.citations().stream().map(TimelineCitationResponse::of).toList(), entry.createdAt(),
                entry.createdBy());
    }
}
