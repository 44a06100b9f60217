package dev.evidencestore.service;

import dev.evidencestore.domain.Artifact;

/** The outcome of binding a name to a blob: the stored artifact, and whether this request created it. */
public record ArtifactBinding(Artifact artifact, boolean created) {
}
