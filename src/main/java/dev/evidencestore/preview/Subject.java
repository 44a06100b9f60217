package dev.evidencestore.preview;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Locale;

/**
 * What the tooling declared about an artifact, which is what a recogniser chooses by: its media type, its source,
 * its kind, its size and its capture details.
 */
public record Subject(String mediaType, String source, String kind, long size, JsonNode capture) {

    public Subject {
        mediaType = mediaType == null ? "" : mediaType;
        source = source == null ? "" : source;
        kind = kind == null ? "" : kind;
    }

    /** The media type without parameters, in lower case: {@code text/x-diff; charset=utf-8} is {@code text/x-diff}. */
    public String essence() {
        int semicolon = mediaType.indexOf(';');
        return (semicolon < 0 ? mediaType : mediaType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    public boolean isJson() {
        String essence = essence();
        return essence.equals("application/json") || essence.endsWith("+json");
    }

    public boolean fromSource(String name) {
        return source.equalsIgnoreCase(name);
    }

    /** A declared capture detail as text, or null. */
    public String declared(String name) {
        JsonNode value = capture == null ? null : capture.get(name);
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }
}
