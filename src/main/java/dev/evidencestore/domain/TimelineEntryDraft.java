package dev.evidencestore.domain;

import java.time.Instant;
import java.util.List;

/** What a responder asks to put on the timeline: what happened, when, and the artifacts that show it. */
public record TimelineEntryDraft(Instant at, String event, List<ArtifactId> artifactIds) {

    public TimelineEntryDraft {
        artifactIds = artifactIds == null ? List.of() : List.copyOf(artifactIds);
    }
}
