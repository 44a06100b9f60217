package dev.evidencestore.domain;

import java.util.List;
import java.util.Set;

/** A finding an investigator proposes: what it says and which artifacts it rests on. */
public record FindingDraft(RecordName name, FindingKind kind, String statement, List<ArtifactId> artifactIds) {

    public FindingDraft {
        artifactIds = List.copyOf(artifactIds);
    }

    /** Whether a stored finding says the same: a retry, not a change. */
    public boolean sameAs(Finding finding) {
        return finding.kind() == kind && finding.statement().equals(statement)
                && Set.copyOf(finding.citations().stream().map(Citation::artifactId).toList())
                .equals(Set.copyOf(artifactIds));
    }
}
