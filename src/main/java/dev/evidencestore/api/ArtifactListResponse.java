package dev.evidencestore.api;

import java.util.List;

/** The artifacts of one incident, by name. */
public record ArtifactListResponse(List<ArtifactResponse> items) {
}
