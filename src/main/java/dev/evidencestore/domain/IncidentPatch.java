package dev.evidencestore.domain;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A JSON merge patch (RFC 7396) of an incident's details: the fields it names and their new values, null
 * clearing a field. It is not validated itself; the details it produces are.
 */
public record IncidentPatch(
        Set<String> fields,
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
        String summary) {

    public IncidentPatch {
        fields = Set.copyOf(fields);
    }

    public IncidentDetails applyTo(IncidentDetails d) {
        return new IncidentDetails(
                pick("title", title, d.title()),
                pick("severity", severity, d.severity()),
                pick("status", status, d.status()),
                pick("services", services, d.services()),
                pick("regions", regions, d.regions()),
                pick("impactStart", impactStart, d.impactStart()),
                pick("impactEnd", impactEnd, d.impactEnd()),
                pick("commander", commander, d.commander()),
                pick("responders", responders, d.responders()),
                pick("reviewOwner", reviewOwner, d.reviewOwner()),
                pick("summary", summary, d.summary()));
    }

    private <T> T pick(String field, T patched, T current) {
        return fields.contains(field) ? patched : current;
    }
}
