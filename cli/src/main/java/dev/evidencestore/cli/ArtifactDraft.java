package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** The bind request of one artifact, less the digest its bytes give: {@code POST …/incidents/{key}/artifacts}. */
record ArtifactDraft(String name, String mediaType, String source, String kind, String capturedAt,
        String description, ObjectNode capture) {

    static final String SNAPSHOT = "snapshot";
    static final String SOURCE_UNAVAILABLE = "source-unavailable";

    ArtifactDraft {
        ArtifactName.require(name);
        if (!source.matches("[a-z][a-z0-9-]{0,31}")) {
            throw CommandFailure.usage("the source \"" + source + "\" is not a lowercase slug such as grafana");
        }
        if (!kind.equals(SNAPSHOT) && !kind.equals(SOURCE_UNAVAILABLE)) {
            throw CommandFailure.usage("--kind is snapshot or source-unavailable, not " + kind);
        }
    }

    /** The request body, made once: its retries must send the same bytes under the same Idempotency-Key. */
    String json(String digest) {
        ObjectNode body = Json.object().put("name", name).put("digest", digest).put("mediaType", mediaType)
                .put("source", source).put("kind", kind).put("capturedAt", capturedAt);
        if (description != null) {
            body.put("description", description);
        }
        body.set("capture", capture);
        return Json.write(body);
    }

    /** An RFC 3339 time as given, checked; now, to the second, when none is. */
    static String capturedAt(String given) {
        if (given == null) {
            return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        }
        try {
            OffsetDateTime.parse(given);
            return given;
        } catch (DateTimeParseException e) {
            throw CommandFailure.usage("--captured-at \"" + given + "\" is not an RFC 3339 time with an offset, such as"
                    + " 2026-06-18T10:20:00Z");
        }
    }
}
