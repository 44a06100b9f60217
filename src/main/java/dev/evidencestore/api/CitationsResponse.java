package dev.evidencestore.api;

import java.util.List;

/** Everything that cites an artifact. */
public record CitationsResponse(String artifactId, List<ReferrerResponse> items) {
}
