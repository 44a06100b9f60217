package dev.evidencestore.preview;

/** A record that a source could not be reached: why, what was attempted, and what was done instead. */
public record UnavailablePreview(String source, String checkedAt, String reason, String operation, String result,
                                 String detail, String fallback, Facts facts) implements Preview {
}
