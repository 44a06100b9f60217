package dev.evidencestore.domain;

import java.util.List;

/** The store's integrity totals and the damaged artifacts one caller may see. */
public record IntegrityReport(IntegrityTotals totals, List<DamagedArtifact> damaged) {

    public IntegrityReport {
        damaged = List.copyOf(damaged);
    }
}
