package dev.evidencestore.domain;

import java.util.List;

/** A change to a proposed finding: a new statement, new citations, or both (null leaves a part as it is). */
public record FindingPatch(String statement, List<ArtifactId> artifactIds) {
}
