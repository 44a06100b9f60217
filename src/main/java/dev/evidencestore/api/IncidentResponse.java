package dev.evidencestore.api;

import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.Narrative;

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
        String investigationQuestion,
        String impact,
        List<String> contributingFactors,
        List<String> wentWell,
        List<String> madeHarder,
        String detectionGap,
        Instant createdAt,
        Instant updatedAt,
        String createdBy) {

    static IncidentResponse of(Incident incident) {
        IncidentDetails d = incident.details();
        Narrative n = d.narrative();
        return new IncidentResponse(incident.workspace().slug(), incident.key().value(), d.title(),
                d.severity().wire(), d.status().wire(), d.services(), d.regions(), d.impactStart(), d.impactEnd(),
                d.commander(), d.responders(), d.reviewOwner(), d.summary(), n.investigationQuestion(), n.impact(),
                n.contributingFactors(), n.wentWell(), n.madeHarder(), n.detectionGap(), incident.createdAt(),
                incident.updatedAt(), incident.createdBy());
    }
}
