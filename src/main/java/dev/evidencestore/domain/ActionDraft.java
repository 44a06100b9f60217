package dev.evidencestore.domain;

import java.time.LocalDate;

/** A follow-up action to record for an incident: what, who, by when, and how far along it already is. */
public record ActionDraft(String action, String owner, LocalDate due, ActionStatus status) {
}
