package dev.evidencestore.render;

import dev.evidencestore.domain.ActionItem;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.ArtifactKind;
import dev.evidencestore.domain.Citation;
import dev.evidencestore.domain.Finding;
import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.IncidentDetails;
import dev.evidencestore.domain.IncidentRecord;
import dev.evidencestore.domain.LogCheckpoint;
import dev.evidencestore.domain.Narrative;
import dev.evidencestore.domain.Review;
import dev.evidencestore.domain.RootCause;
import dev.evidencestore.domain.TimelineEntry;
import dev.evidencestore.domain.VerificationResult;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The postmortem page in CommonMark, in the shape of the seed INC-1423 page. Everything comes from the record; a
 * section without data says so rather than inventing anything. Every artifact is cited by full ID, on its own line
 * with its digest, so that the citation check can verify the page line by line. The page's structure is the
 * service's: every piece of record text goes through {@link InlineMarkdown}, so none can open a heading, list, quote,
 * table or code block of its own, or pass itself off as another section, such as the review record.
 */
public final class PostmortemMarkdown {

    private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final IncidentRecord record;
    private final StringBuilder out = new StringBuilder();

    private PostmortemMarkdown(IncidentRecord record) {
        this.record = record;
    }

    public static String render(IncidentRecord record, EvidenceManifest manifest, LogCheckpoint checkpoint) {
        PostmortemMarkdown page = new PostmortemMarkdown(record);
        page.header();
        page.prose("Summary", record.incident().details().summary(), "No summary has been recorded.");
        Narrative narrative = record.incident().details().narrative();
        page.prose("Impact", narrative.impact(), "No impact statement has been recorded.");
        page.chronology();
        page.diagnosis();
        page.rootCause();
        page.findings();
        page.list("Contributing factors", narrative.contributingFactors());
        page.list("What went well", narrative.wentWell());
        page.list("What made response harder", narrative.madeHarder());
        page.prose("Detection gap", narrative.detectionGap(), "No detection gap has been recorded.");
        page.actions();
        page.evidenceRecord(checkpoint);
        page.line("Evidence manifest digest: `" + manifest.digest() + "`");
        return page.out.toString();
    }

    private void header() {
        IncidentDetails d = record.incident().details();
        line("# " + record.incident().key() + ": " + inline(d.title()));
        line("");
        line("| Field | Value |");
        line("| --- | --- |");
        row("Severity", d.severity().wire());
        row("Status", capitalized(d.status().wire()));
        row("Services", joined(d.services()));
        row("Regions", joined(d.regions()));
        row("Impact window", impactWindow(d));
        row("Incident commander", orNone(d.commander()));
        row("Responders", joined(d.responders()));
        row("Review owner", orNone(d.reviewOwner()));
        line("");
    }

    private void chronology() {
        heading("Chronology");
        if (record.timeline().isEmpty()) {
            line("_No chronology has been recorded._");
            line("");
            return;
        }
        boolean oneDay = record.timeline().stream().map(e -> day(e.at())).distinct().count() == 1;
        if (oneDay) {
            line("All times are UTC on " + day(record.timeline().get(0).at()) + ".");
            line("");
        }
        line("| Time | Elapsed | Event |");
        line("| --- | ---: | --- |");
        for (TimelineEntry entry : record.timeline()) {
            String time = oneDay ? TIME.format(entry.at()) : DAY_TIME.format(entry.at());
            String evidence = entry.citations().stream().map(c -> " `" + c.artifactId() + "`")
                    .collect(Collectors.joining());
            line("| " + time + " | " + (entry.elapsed() == null ? "—" : entry.elapsed().toString()) + " | "
                    + cell(entry.event()) + evidence + " |");
        }
        line("");
    }

    private void diagnosis() {
        heading("Detection and diagnosis");
        String question = record.incident().details().narrative().investigationQuestion();
        line(question == null ? "_No investigation question has been recorded._"
                : "The investigation asked: \"" + inline(question) + "\"");
        line("");
        if (record.artifacts().isEmpty()) {
            line("_No evidence has been stored._");
            line("");
            return;
        }
        line("Sources checked and stored evidence:");
        line("");
        for (Artifact artifact : record.artifacts()) {
            String source = artifact.kind() == ArtifactKind.SOURCE_UNAVAILABLE
                    ? "**" + inline(artifact.source()) + "** (unavailable)" : "**" + inline(artifact.source()) + "**";
            String about = artifact.description() == null ? "" : ": " + inline(artifact.description());
            line("- " + source + about);
            line("  - `" + artifact.id() + "` `" + artifact.digest() + "` (" + inline(artifact.mediaType()) + ", "
                    + artifact.size() + " bytes, captured " + DAY_TIME.format(artifact.capturedAt()) + " UTC)");
        }
        line("");
    }

    private void rootCause() {
        heading("Root cause");
        RootCause rootCause = record.rootCause();
        if (rootCause == null) {
            line("_No root cause has been proposed._");
            line("");
            return;
        }
        paragraph(rootCause.statement());
        line("Confidence: **" + rootCause.confidence().wire() + "**. Status: **" + rootCause.status().wire()
                + "**, resting on " + rootCause.findings().size() + " finding(s):");
        line("");
        for (Finding finding : rootCause.findings()) {
            line("- `" + finding.id() + "` (" + finding.kind().wire() + ", " + finding.status().wire() + ")");
        }
        line("");
    }

    private void findings() {
        heading("Findings");
        if (record.findings().isEmpty()) {
            line("_No findings have been recorded._");
            line("");
            return;
        }
        for (FindingKind kind : FindingKind.values()) {
            line("### " + capitalized(kind.wire()));
            line("");
            List<Finding> ofKind = record.findings().stream().filter(f -> f.kind() == kind).toList();
            if (ofKind.isEmpty()) {
                line("_None._");
            }
            for (Finding finding : ofKind) {
                line("- `" + finding.id() + "` (" + finding.status().wire() + "): " + inline(finding.statement()));
                for (Citation citation : finding.citations()) {
                    line("  - cites `" + citation.artifactId() + "` `" + citation.digest() + "`");
                }
            }
            line("");
        }
    }

    private void actions() {
        heading("Actions");
        if (record.actions().isEmpty()) {
            line("_No actions have been recorded._");
            line("");
            return;
        }
        line("| Owner | Due | Status | Action |");
        line("| --- | --- | --- | --- |");
        for (ActionItem action : record.actions()) {
            String status = capitalized(action.status().wire()) + (action.overdue() ? " (overdue)" : "");
            line("| " + cell(action.owner()) + " | " + action.due() + " | " + status + " | " + cell(action.action())
                    + " |");
        }
        line("");
    }

    private void evidenceRecord(LogCheckpoint checkpoint) {
        heading("Evidence and review record");
        line("Verifications of the stored bytes:");
        line("");
        boolean any = false;
        for (Artifact artifact : record.artifacts()) {
            for (VerificationResult v : record.verificationsOf(artifact.id())) {
                any = true;
                String outcome = v.verified() ? "verified" : "**failed**"
                        + (v.computedDigest() == null ? ", bytes unreadable" : ", computed `" + v.computedDigest() + "`");
                line("- `" + artifact.id() + "` `" + v.recordedDigest() + "`: " + outcome + " by "
                        + inline(v.verifiedBy()) + " at " + DAY_TIME.format(v.verifiedAt()) + " UTC");
            }
        }
        if (!any) {
            line("_No artifact has been verified yet._");
        }
        line("");
        line("Reviews:");
        line("");
        boolean reviewed = false;
        for (Finding finding : record.findings()) {
            for (Review review : finding.reviews()) {
                reviewed = true;
                line("- `" + finding.id() + "` " + review.decision().wire() + " by " + inline(review.reviewedBy())
                        + " at " + DAY_TIME.format(review.reviewedAt()) + " UTC: " + inline(review.note()));
            }
        }
        if (record.rootCause() != null) {
            for (Review review : record.rootCause().reviews()) {
                reviewed = true;
                line("- root cause " + review.decision().wire() + " by " + inline(review.reviewedBy())
                        + " at " + DAY_TIME.format(review.reviewedAt()) + " UTC: " + inline(review.note()));
            }
        }
        if (!reviewed) {
            line("_No reviews have been recorded._");
        }
        line("");
        if (checkpoint == null) {
            line("_No signed audit checkpoint has been written yet._");
        } else {
            // the signed note exactly as served, so a reader can check it with the log's public key alone
            line("Latest signed audit checkpoint, over the first " + checkpoint.treeSize() + " entries of the log, "
                    + "signed by key `" + checkpoint.keyId() + "` (C2SP signed note):");
            line("");
            line("```text");
            checkpoint.note().lines().forEach(this::line);
            line("```");
        }
        line("");
    }

    private void prose(String title, String text, String none) {
        heading(title);
        if (text == null) {
            line("_" + none + "_");
            line("");
        } else {
            paragraph(text);
        }
    }

    private void list(String title, List<String> items) {
        heading(title);
        if (items.isEmpty()) {
            line("_Nothing has been recorded._");
        }
        items.forEach(item -> line("- " + inline(item)));
        line("");
    }

    private void heading(String title) {
        line("## " + title);
        line("");
    }

    /** Prose from the record keeps its lines and paragraphs, and nothing but inline Markdown. */
    private void paragraph(String text) {
        line(InlineMarkdown.render(text, InlineMarkdown.Shape.PARAGRAPHS));
        line("");
    }

    /** A row of the header table; the value is Markdown already, its record text made a cell's. */
    private void row(String field, String value) {
        line("| " + field + " | " + value + " |");
    }

    private void line(String text) {
        out.append(text).append('\n');
    }

    private static String impactWindow(IncidentDetails d) {
        if (d.impactStart() == null) {
            return "not recorded";
        }
        if (d.impactEnd() == null) {
            return DAY_TIME.format(d.impactStart()) + " UTC, ongoing";
        }
        String end = day(d.impactStart()).equals(day(d.impactEnd())) ? TIME.format(d.impactEnd())
                : DAY_TIME.format(d.impactEnd());
        return DAY_TIME.format(d.impactStart()) + "–" + end + " UTC";
    }

    private static LocalDate day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }

    private static String joined(List<String> values) {
        return values.isEmpty() ? "none recorded"
                : values.stream().map(PostmortemMarkdown::cell).collect(Collectors.joining(", "));
    }

    private static String orNone(String value) {
        return value == null ? "not recorded" : cell(value);
    }

    private static String capitalized(String wire) {
        String words = wire.replace('-', ' ');
        return Character.toUpperCase(words.charAt(0)) + words.substring(1);
    }

    /** Record text within one line of the page, such as a list item: line breaks become spaces. */
    private static String inline(String text) {
        return InlineMarkdown.render(text, InlineMarkdown.Shape.LINE);
    }

    /** Record text inside a table cell: one line, and a pipe cannot end the cell. */
    private static String cell(String text) {
        return InlineMarkdown.render(text, InlineMarkdown.Shape.CELL);
    }
}
