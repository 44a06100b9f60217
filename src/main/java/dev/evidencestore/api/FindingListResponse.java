package dev.evidencestore.api;

import java.util.List;

/** Findings of one incident, by name. */
public record FindingListResponse(List<FindingResponse> items) {
}
