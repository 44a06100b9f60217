package dev.evidencestore.preview;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A record that a source could not be reached, in the shape the demo's collector writes: the reason, the attempted
 * operation and its result, and the fallback the responders used instead.
 */
public final class SourceUnavailable implements Recogniser {

    @Override
    public String name() {
        return "source-unavailable/1";
    }

    @Override
    public boolean accepts(Subject subject) {
        return "source-unavailable".equals(subject.kind()) && subject.isJson();
    }

    @Override
    public Preview read(Subject subject, Prefix prefix) throws Unreadable {
        JsonNode root = JsonBytes.read(prefix);
        JsonNode attempt = root.path("attempt");
        String reason = JsonBytes.text(root, "reason");
        if (reason == null && attempt.isMissingNode()) {
            throw new Unreadable("a source-unavailable record names a reason or an attempt");
        }
        String source = JsonBytes.text(root, "source");
        String operation = join(JsonBytes.text(attempt, "connector"), JsonBytes.text(attempt, "operation"));
        String result = JsonBytes.text(attempt, "result");
        Facts.Builder facts = Facts.builder()
                .fact("unavailableSource", "Unavailable source", source)
                .fact("reason", "Reason", reason)
                .fact("attempted", "Attempted", operation)
                .fact("result", "Result", result)
                .fact("checkedAt", "Checked", JsonBytes.text(root, "checkedAt"));
        if (source != null && !subject.source().isEmpty() && !source.equalsIgnoreCase(subject.source())) {
            facts.disagree("source", subject.source(), "the record is about " + source);
        }
        String declaredResult = subject.declared("result");
        if (declaredResult != null && result != null && !declaredResult.equals(result)) {
            facts.disagree("result", declaredResult, "the attempt's result is " + result);
        }
        return new UnavailablePreview(source == null ? subject.source() : source, JsonBytes.text(root, "checkedAt"),
                reason, operation, result, JsonBytes.text(attempt, "detail"), fallback(root.get("fallback")),
                facts.build());
    }

    private static String fallback(JsonNode fallback) {
        if (fallback == null || fallback.isNull()) {
            return null;
        }
        if (!fallback.isObject()) {
            return fallback.asText();
        }
        List<String> parts = new ArrayList<>();
        String from = JsonBytes.text(fallback, "assessedFrom");
        if (from != null) {
            parts.add("Assessed from " + from + ".");
        }
        String note = JsonBytes.text(fallback, "note");
        if (note != null) {
            parts.add(note);
        }
        return parts.isEmpty() ? fallback.toString() : String.join(" ", parts);
    }

    private static String join(String connector, String operation) {
        if (operation == null) {
            return connector;
        }
        return connector == null ? operation : connector + " " + operation;
    }
}
