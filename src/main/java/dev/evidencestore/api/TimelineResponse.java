package dev.evidencestore.api;

import java.util.List;

/** The timeline of one incident, by when things happened. */
public record TimelineResponse(List<TimelineEntryResponse> items) {
}
