package dev.evidencestore.domain;

/** One offending input field and why it was refused. */
public record FieldError(String field, String message) {
}
