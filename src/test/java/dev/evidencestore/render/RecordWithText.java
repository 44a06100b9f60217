package dev.evidencestore.render;

import dev.evidencestore.domain.ActionItem;
import dev.evidencestore.domain.ActionStatus;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.ArtifactKind;
import dev.evidencestore.domain.Citation;
import dev.evidencestore.domain.Confidence;
import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Elapsed;
import dev.evidencestore.domain.Finding;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.IncidentRecord;
import dev.evidencestore.domain.IncidentStatus;
import dev.evidencestore.domain.LogCheckpoint;
import dev.evidencestore.domain.Narrative;
import dev.evidencestore.domain.Review;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.RootCause;
import dev.evidencestore.domain.RootCauseId;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.domain.Severity;
import dev.evidencestore.domain.TimelineCitation;
import dev.evidencestore.domain.TimelineEntry;
import dev.evidencestore.domain.VerificationResult;
import dev.evidencestore.domain.Workspace;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * A complete investigation held in memory, with one text in every field a person writes: title, names, summary,
 * narrative, artifact sources, media types and descriptions, statements, notes, reviewers, events and actions.
 * Two artifacts are cited by a finding each, by the chronology and by their verifications.
 */
final class RecordWithText {

    static final String KEY = "INC-1423";
    static final Workspace DEMO = Workspace.parse("demo");
    static final ArtifactId PANEL = ArtifactId.parse("artifact:demo:v1:INC-1423:grafana-checkout");
    static final ArtifactId GAP = ArtifactId.parse("artifact:demo:v1:INC-1423:intercom-readiness");
    static final Digest PANEL_DIGEST = Digest.parse("sha256:" + "7c".repeat(32));
    static final Digest GAP_DIGEST = Digest.parse("sha256:" + "a1".repeat(32));
    static final FindingId SUPPORTING = FindingId.parse("finding:demo:v1:INC-1423:queue-after-deploy");
    static final FindingId UNAVAILABLE = FindingId.parse("finding:demo:v1:INC-1423:intercom-gap");
    static final LogCheckpoint CHECKPOINT = new LogCheckpoint("evidence-store.test/audit", 42,
            "UNhY4JhezH9gQYqvDMWrWH9CwlcKiECVqejMrND2VFw=", "366c25f7", "evidence-store.test/audit\n42\n"
            + "UNhY4JhezH9gQYqvDMWrWH9CwlcKiECVqejMrND2VFw=\n\n\u2014 evidence-store.test/audit c2lnbmF0dXJl\n",
            Instant.parse("2026-06-19T08:00:00Z"));

    private static final Instant AT = Instant.parse("2026-06-18T09:00:00Z");

    private RecordWithText() {
    }

    static IncidentRecord everywhere(String text) {
        IncidentKey key = IncidentKey.parse(KEY);
        List<String> many = List.of(text, text);
        Narrative narrative = new Narrative(text, text, many, many, many, text);
        IncidentDetails details = new IncidentDetails(text, Severity.SEV_2, IncidentStatus.IN_REVIEW, many, many, AT,
                AT.plusSeconds(5040), text, many, text, text, narrative);
        Incident incident = new Incident(DEMO, key, details, AT, AT, text);
        Artifact panel = artifact(PANEL, PANEL_DIGEST, ArtifactKind.SNAPSHOT, text);
        Artifact gap = artifact(GAP, GAP_DIGEST, ArtifactKind.SOURCE_UNAVAILABLE, text);
        VerificationResult panelCheck = verification(PANEL, PANEL_DIGEST, text);
        VerificationResult gapCheck = verification(GAP, GAP_DIGEST, text);
        Review review = new Review(Decision.ACCEPTED, text, AT.plusSeconds(3600), text);
        Finding supporting = new Finding(SUPPORTING, FindingKind.SUPPORTING, text, ReviewStatus.ACCEPTED,
                List.of(new Citation(PANEL, PANEL_DIGEST, panelCheck)), List.of(review), AT, AT, text);
        Finding unavailable = new Finding(UNAVAILABLE, FindingKind.GAP, text, ReviewStatus.PROPOSED,
                List.of(new Citation(GAP, GAP_DIGEST, gapCheck)), List.of(), AT, AT, text);
        RootCause rootCause = new RootCause(new RootCauseId(DEMO, key), text, Confidence.HIGH, ReviewStatus.PROPOSED,
                List.of(supporting), List.of(review), AT, AT, text);
        TimelineEntry entry = new TimelineEntry(new SequenceId(SequenceId.TIMELINE, DEMO, key, 1),
                AT.plusSeconds(1080), new Elapsed(18), text,
                List.of(new TimelineCitation(PANEL, PANEL_DIGEST), new TimelineCitation(GAP, GAP_DIGEST)), AT, text);
        ActionItem action = new ActionItem(new SequenceId(SequenceId.ACTION, DEMO, key, 1), text, text,
                LocalDate.parse("2026-06-26"), ActionStatus.OPEN, false, AT, AT, text);
        return new IncidentRecord(incident, List.of(panel, gap), Map.of(PANEL, List.of(panelCheck), GAP,
                List.of(gapCheck)), List.of(supporting, unavailable), rootCause, List.of(entry), List.of(action));
    }

    private static Artifact artifact(ArtifactId id, Digest digest, ArtifactKind kind, String text) {
        return new Artifact(id, digest, 22, text, text, kind, AT.plusSeconds(720), AT, text, null, text);
    }

    private static VerificationResult verification(ArtifactId id, Digest digest, String text) {
        return new VerificationResult(id, digest, digest, null, true, AT.plusSeconds(1800), text);
    }
}
