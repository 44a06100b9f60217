package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An RFC 9457 problem document as the service answers every refusal: the last part of its {@code type} URI (the
 * stable slug, such as {@code artifact-name-taken}), its status and its detail.
 */
record Problem(int status, String type, String detail, JsonNode document) {

    /** The problem of an answer: its document when it is one, else what the status alone says. */
    static Problem of(int status, String body) {
        JsonNode document = Json.readOrNull(body);
        if (document == null || !document.isObject()) {
            return new Problem(status, "", body == null || body.isBlank() ? "HTTP " + status : body.strip(), null);
        }
        String type = document.path("type").asText("");
        String slug = type.substring(type.lastIndexOf('/') + 1);
        String detail = document.path("detail").asText(document.path("title").asText("HTTP " + status));
        return new Problem(status, slug, detail, document);
    }

    boolean is(String slug) {
        return type.equals(slug);
    }

    @Override
    public String toString() {
        return status + (type.isEmpty() ? "" : " " + type) + ": " + detail;
    }
}
