package dev.evidencestore.domain;

import java.util.List;
import java.util.Map;

/**
 * Everything the service holds about one incident, as a postmortem, manifest or bundle presents it: the incident,
 * its artifacts with every verification, findings, root cause (null when none), chronology and actions.
 */
public record IncidentRecord(
        Incident incident,
        List<Artifact> artifacts,
        Map<ArtifactId, List<VerificationResult>> verifications,
        List<Finding> findings,
        RootCause rootCause,
        List<TimelineEntry> timeline,
        List<ActionItem> actions) {

    public IncidentRecord {
        artifacts = List.copyOf(artifacts);
        verifications = Map.copyOf(verifications);
        findings = List.copyOf(findings);
        timeline = List.copyOf(timeline);
        actions = List.copyOf(actions);
    }

    public List<VerificationResult> verificationsOf(ArtifactId id) {
        return verifications.getOrDefault(id, List.of());
    }
}
