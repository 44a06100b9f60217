package dev.evidencestore.domain;

import java.time.Instant;

/** An incident as the service reports it. */
public record Incident(Workspace workspace, IncidentKey key, IncidentDetails details, Instant createdAt,
                       Instant updatedAt, String createdBy) {
}
