package dev.evidencestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.evidencestore.domain.ArtifactDraft;
import dev.evidencestore.domain.ArtifactKind;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.Violations;

import java.time.Instant;
import java.util.regex.Pattern;

/** Body of {@code POST /workspaces/{ws}/incidents/{key}/artifacts}. */
public record ArtifactRequest(
        String name,
        String digest,
        String mediaType,
        String source,
        String kind,
        String capturedAt,
        String description,
        JsonNode capture) {

    /** RFC 6838 type/subtype with optional parameters. */
    private static final Pattern MEDIA_TYPE = Pattern.compile(
            "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
                    // parameters: printable quoted values only, so no line break can reach a header or a page
                    + "([ \\t]*;[ \\t]*[A-Za-z0-9!#$&^_.+-]+="
                    + "(\"[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]*\"|[A-Za-z0-9!#$&^_.+-]+))*");
    private static final Pattern SOURCE = Pattern.compile("[a-z][a-z0-9-]{0,31}");
    private static final int MAX_CAPTURE_CHARS = 65_536;

    ArtifactDraft toDraft() {
        Violations v = new Violations();
        RecordName parsedName = v.parse("name", v.required("name", name), RecordName::parse);
        Digest parsedDigest = v.parse("digest", v.required("digest", digest), Digest::parse);
        if (v.required("mediaType", mediaType) != null && !MEDIA_TYPE.matcher(mediaType).matches()) {
            v.add("mediaType", "must be a media type such as application/json or image/png");
        }
        if (v.required("source", source) != null && !SOURCE.matcher(source).matches()) {
            v.add("source", "must be a lowercase slug such as grafana, kubernetes, github or intercom");
        }
        ArtifactKind parsedKind = v.parse("kind", v.required("kind", kind), ArtifactKind::parse);
        Instant captured = v.parse("capturedAt", v.required("capturedAt", capturedAt), Timestamps::parse);
        TextRules.check(v, "description", description, TextRules.PROSE);
        String captureJson = null;
        if (capture != null && !capture.isNull()) {
            if (!capture.isObject()) {
                v.add("capture", "must be a JSON object");
            }
            captureJson = capture.toString();
            if (captureJson.length() > MAX_CAPTURE_CHARS) {
                v.add("capture", "must be at most " + MAX_CAPTURE_CHARS + " characters of JSON");
            }
        }
        v.throwIfAny();
        return new ArtifactDraft(parsedName, parsedDigest, mediaType, source, parsedKind, captured, description,
                captureJson);
    }
}
