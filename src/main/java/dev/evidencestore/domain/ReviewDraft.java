package dev.evidencestore.domain;

/** A decision a reviewer asks to record. */
public record ReviewDraft(Decision decision, String note) {
}
