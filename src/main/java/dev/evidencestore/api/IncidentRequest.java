package dev.evidencestore.api;

import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.IncidentPatch;
import dev.evidencestore.domain.IncidentStatus;
import dev.evidencestore.domain.Narrative;
import dev.evidencestore.domain.Severity;
import dev.evidencestore.domain.Violations;

import java.time.Instant;
import java.util.List;
import java.util.Set;

/** Body of {@code POST /workspaces/{ws}/incidents}, and of a merge patch of one. */
public record IncidentRequest(
        String key,
        String title,
        String severity,
        String status,
        List<String> services,
        List<String> regions,
        String impactStart,
        String impactEnd,
        String commander,
        List<String> responders,
        String reviewOwner,
        String summary,
        String investigationQuestion,
        String impact,
        List<String> contributingFactors,
        List<String> wentWell,
        List<String> madeHarder,
        String detectionGap) {

    static final Set<String> DETAIL_FIELDS = Set.of("title", "severity", "status", "services", "regions",
            "impactStart", "impactEnd", "commander", "responders", "reviewOwner", "summary", "investigationQuestion",
            "impact", "contributingFactors", "wentWell", "madeHarder", "detectionGap");
    private static final List<String> REQUIRED = List.of("title", "severity", "status");

    /** A new incident: its key and details. A missing status means it is still being investigated. */
    NewIncident toNewIncident() {
        Violations v = new Violations();
        IncidentKey parsedKey = v.parse("key", v.required("key", key), IncidentKey::parse);
        v.required("title", title);
        v.required("severity", severity);
        IncidentPatch values = parse(v, DETAIL_FIELDS);
        v.throwIfAny();
        IncidentStatus initial = values.status() == null ? IncidentStatus.INVESTIGATING : values.status();
        return new NewIncident(parsedKey, new IncidentDetails(values.title(), values.severity(), initial,
                values.services(), values.regions(), values.impactStart(), values.impactEnd(), values.commander(),
                values.responders(), values.reviewOwner(), values.summary(), values.narrative()));
    }

    record NewIncident(IncidentKey key, IncidentDetails details) {
    }

    /** The change a merge patch naming {@code fields} asks for. */
    IncidentPatch toPatch(Set<String> fields) {
        Violations v = new Violations();
        if (fields.contains("key")) {
            v.add("key", "cannot be changed; it is part of the incident's identity");
        }
        IncidentPatch patch = parse(v, fields);
        for (String field : REQUIRED) {
            if (fields.contains(field) && valueOf(field) == null) {
                v.add(field, "cannot be removed");
            }
        }
        v.throwIfAny();
        return patch;
    }

    private IncidentPatch parse(Violations v, Set<String> fields) {
        Severity parsedSeverity = severity == null ? null : v.parse("severity", severity, Severity::parse);
        IncidentStatus parsedStatus = status == null ? null : v.parse("status", status, IncidentStatus::parse);
        Instant start = impactStart == null ? null : v.parse("impactStart", impactStart, Timestamps::parse);
        Instant end = impactEnd == null ? null : v.parse("impactEnd", impactEnd, Timestamps::parse);
        if (title != null && title.isBlank()) {
            v.add("title", "must not be blank");
        }
        TextRules.check(v, "title", title, TextRules.LINE);
        TextRules.check(v, "commander", commander, TextRules.LINE);
        TextRules.check(v, "reviewOwner", reviewOwner, TextRules.LINE);
        TextRules.check(v, "summary", summary, TextRules.PROSE);
        TextRules.checkAll(v, "services", services);
        TextRules.checkAll(v, "regions", regions);
        TextRules.checkAll(v, "responders", responders);
        TextRules.check(v, "investigationQuestion", investigationQuestion, TextRules.PROSE);
        TextRules.check(v, "impact", impact, TextRules.PROSE);
        TextRules.check(v, "detectionGap", detectionGap, TextRules.PROSE);
        TextRules.checkAll(v, "contributingFactors", contributingFactors, TextRules.PROSE);
        TextRules.checkAll(v, "wentWell", wentWell, TextRules.PROSE);
        TextRules.checkAll(v, "madeHarder", madeHarder, TextRules.PROSE);
        Narrative narrative = new Narrative(investigationQuestion, impact, contributingFactors, wentWell, madeHarder,
                detectionGap);
        return new IncidentPatch(fields, title, parsedSeverity, parsedStatus, services, regions, start, end,
                commander, responders, reviewOwner, summary, narrative);
    }

    private Object valueOf(String field) {
        return switch (field) {
            case "title" -> title;
            case "severity" -> severity;
            case "status" -> status;
            default -> throw new IllegalArgumentException(field);
        };
    }
}
