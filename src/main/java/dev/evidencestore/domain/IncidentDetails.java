package dev.evidencestore.domain;

import java.time.Instant;
import java.util.List;

/** The mutable description of an incident; everything but its workspace and key. */
public record IncidentDetails(
        String title,
        Severity severity,
        IncidentStatus status,
        List<String> services,
        List<String> regions,
        Instant impactStart,
        Instant impactEnd,
        String commander,
        List<String> responders,
        String reviewOwner,
        String summary,
        Narrative narrative) {

    public IncidentDetails {
        if (title == null || title.isBlank()) {
            throw Refusal.invalid("title", "is required and must not be blank");
        }
        if (severity == null) {
            throw Refusal.invalid("severity", "is required");
        }
        if (status == null) {
            throw Refusal.invalid("status", "is required");
        }
        services = services == null ? List.of() : List.copyOf(services);
        regions = regions == null ? List.of() : List.copyOf(regions);
        responders = responders == null ? List.of() : List.copyOf(responders);
        narrative = narrative == null ? Narrative.EMPTY : narrative;
        if (impactStart != null && impactEnd != null && impactEnd.isBefore(impactStart)) {
            throw Refusal.invalid("impactEnd", "must not be before impactStart");
        }
    }
}
