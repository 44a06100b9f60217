package dev.evidencestore.api;

import java.util.List;

/** A page of incidents, newest first; {@code nextCursor} is null on the last page. */
public record IncidentPageResponse(List<IncidentResponse> items, String nextCursor) {
}
