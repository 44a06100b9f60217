package dev.evidencestore.service;

import dev.evidencestore.domain.RootCause;

/** The outcome of putting a root cause: the stored one, and whether this request created it. */
public record RootCauseBinding(RootCause rootCause, boolean created) {
}
