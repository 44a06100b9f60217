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
        String summary,
        Narrative narrative) {

    public IncidentPatch {
        fields = Set.copyOf(fields);
        narrative = narrative == null ? Narrative.EMPTY : narrative;
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
                pick("summary", summary, d.summary()),
                applyTo(d.narrative()));
    }

    private Narrative applyTo(Narrative n) {
        return new Narrative(
                pick("investigationQuestion", narrative.investigationQuestion(), n.investigationQuestion()),
                pick("impact", narrative.impact(), n.impact()),
                pick("contributingFactors", narrative.contributingFactors(), n.contributingFactors()),
                pick("wentWell", narrative.wentWell(), n.wentWell()),
                pick("madeHarder", narrative.madeHarder(), n.madeHarder()),
                pick("detectionGap", narrative.detectionGap(), n.detectionGap()));
    }

    private <T> T pick(String field, T patched, T current) {
        return fields.contains(field) ? patched : current;
    }
}
