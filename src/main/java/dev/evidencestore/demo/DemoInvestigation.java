package dev.evidencestore.demo;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Objects;

/**
 * The seed investigation INC-1423 as the data file {@code demo/INC-1423/investigation.json} holds it, in the seed
 * postmortem's words: who acts, the incident and its narrative, the artifacts (each a file beside the data file),
 * findings with their reviews, the root cause with its review, the chronology and the actions. Artifacts and
 * findings are cited by their names within the incident.
 */
public record DemoInvestigation(
        People people,
        IncidentHeader incident,
        NarrativeText narrative,
        List<ArtifactFile> artifacts,
        List<FindingRecord> findings,
        RootCauseRecord rootCause,
        List<TimelineRecord> timeline,
        List<ActionRecord> actions) {

    /** Where the data file and the artifact files live on the class path. */
    public static final String DIRECTORY = "demo/INC-1423/";
    public static final String DATA_FILE = DIRECTORY + "investigation.json";

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    public DemoInvestigation {
        Objects.requireNonNull(people, "people");
        Objects.requireNonNull(incident, "incident");
        Objects.requireNonNull(narrative, "narrative");
        Objects.requireNonNull(rootCause, "rootCause");
        artifacts = List.copyOf(artifacts);
        findings = List.copyOf(findings);
        timeline = List.copyOf(timeline);
        actions = List.copyOf(actions);
    }

    /** Reads the data file from the class path. */
    public static DemoInvestigation read() {
        try (InputStream in = open(DATA_FILE)) {
            return MAPPER.readValue(in, DemoInvestigation.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DATA_FILE, e);
        }
    }

    /** The bytes of an artifact file beside the data file. */
    public static byte[] bytesOf(ArtifactFile artifact) {
        try (InputStream in = open(DIRECTORY + artifact.file())) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + DIRECTORY + artifact.file(), e);
        }
    }

    private static InputStream open(String resource) throws IOException {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        InputStream in = (loader == null ? DemoInvestigation.class.getClassLoader() : loader).getResourceAsStream(resource);
        if (in == null) {
            throw new IOException(resource + " is not on the class path");
        }
        return in;
    }

    /** The user names the three people act under, recorded as createdBy, verifiedBy and reviewedBy. */
    public record People(String collector, String investigator, String reviewer) {
    }

    /** The incident as it is created: everything of the seed's header table, and its executive summary. */
    public record IncidentHeader(
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
            String summary) {
    }

    /** The postmortem's prose, patched onto the incident once the investigation is decided. */
    public record NarrativeText(
            String investigationQuestion,
            String impact,
            List<String> contributingFactors,
            List<String> wentWell,
            List<String> madeHarder,
            String detectionGap) {
    }

    /** An artifact: its name in the incident, the file holding its bytes, and how it was captured. */
    public record ArtifactFile(
            String name,
            String file,
            String mediaType,
            String source,
            String kind,
            String capturedAt,
            String description,
            JsonNode capture) {
    }

    /** A decision a reviewer records, with what they checked. */
    public record ReviewRecord(String decision, String note) {
    }

    /** A finding, the artifacts it cites (by name), and the review it received. */
    public record FindingRecord(String name, String kind, String statement, List<String> artifacts,
                                ReviewRecord review) {
    }

    /** The root cause, the findings it rests on (by name), and the review it received. */
    public record RootCauseRecord(String statement, String confidence, List<String> findings, ReviewRecord review) {
    }

    /** A chronology entry and the artifacts (by name) it rests on, if any. */
    public record TimelineRecord(String at, String event, List<String> artifacts) {

        public TimelineRecord {
            artifacts = artifacts == null ? List.of() : List.copyOf(artifacts);
        }
    }

    /** A follow-up action. */
    public record ActionRecord(String owner, String due, String status, String action) {
    }
}
