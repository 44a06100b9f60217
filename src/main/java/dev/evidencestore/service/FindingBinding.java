package dev.evidencestore.service;

import dev.evidencestore.domain.Finding;

/** The outcome of proposing a finding: the stored finding, and whether this request created it. */
public record FindingBinding(Finding finding, boolean created) {
}
