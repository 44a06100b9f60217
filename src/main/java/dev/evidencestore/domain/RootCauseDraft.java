package dev.evidencestore.domain;

import java.util.List;

/** The root cause investigators propose and the findings it rests on. */
public record RootCauseDraft(String statement, Confidence confidence, List<FindingId> findingIds) {

    public RootCauseDraft {
        findingIds = List.copyOf(findingIds);
    }

    public boolean sameAs(RootCause rootCause) {
        return rootCause.statement().equals(statement) && rootCause.confidence() == confidence
                && rootCause.findings().stream().map(Finding::id).toList().equals(findingIds);
    }
}
