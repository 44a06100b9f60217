package dev.evidencestore.domain;

/** An artifact a timeline entry cites, with the digest it had when it was cited. */
public record TimelineCitation(ArtifactId artifactId, Digest digest) {
}
