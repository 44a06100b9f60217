package dev.evidencestore.api;

import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentDetails;

import java.time.Instant;
import java.util.List;

public record IncidentResponse(
        String workspace,
        String key,
        String title,
        String severity,
        String status,
        List<String> services,
        List<String> regions,
        Instant impactStart,
        Instant impactEnd,
        String commander,
        List<String> responders,
        String reviewOwner,
        String summary,
        Instant createdAt,
        Instant updatedAt) {

    static IncidentResponse of(Incident incident) {
        IncidentDetails d = incident.details();
        return new IncidentResponse(incident.workspace().slug(), incident.key().value(), d.title(),
                d.severity().wire(), d.status().wire(), d.services(), d.regions(), d.impactStart(), d.impactEnd(),
                d.commander(), d.responders(), d.reviewOwner(), d.summary(), incident.createdAt(),
                incident.updatedAt());
    }
}
