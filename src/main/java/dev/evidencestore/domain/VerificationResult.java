package dev.evidencestore.domain;

import java.time.Instant;

/**
 * One re-reading of an artifact's stored bytes. {@code computedDigest} is null when the bytes could not be read
 * at all; {@code claimedDigest} is what the reviewer computed locally, if they said.
 */
public record VerificationResult(
        ArtifactId artifactId,
        Digest recordedDigest,
        Digest computedDigest,
        Digest claimedDigest,
        boolean verified,
        Instant verifiedAt,
        String verifiedBy) {

    /** Verified only when every digest present agrees with the one recorded at upload. */
    public static boolean agrees(Digest recorded, Digest computed, Digest claimed) {
        return recorded.equals(computed) && (claimed == null || claimed.equals(recorded));
    }
}
