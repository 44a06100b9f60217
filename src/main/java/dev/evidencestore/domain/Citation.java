package dev.evidencestore.domain;

/**
 * A record's reference to an artifact, pinned to the digest the artifact had when cited, with the artifact's
 * latest verification (null when it was never verified).
 */
public record Citation(ArtifactId artifactId, Digest digest, VerificationResult latestVerification) {
}
