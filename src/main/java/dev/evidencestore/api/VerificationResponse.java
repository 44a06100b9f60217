package dev.evidencestore.api;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.VerificationResult;

import java.time.Instant;

public record VerificationResponse(
        String artifactId,
        String recordedDigest,
        String computedDigest,
        String claimedDigest,
        boolean verified,
        Instant verifiedAt,
        String verifiedBy) {

    static VerificationResponse of(VerificationResult v) {
        return new VerificationResponse(v.artifactId().toString(), v.recordedDigest().toString(),
                text(v.computedDigest()), text(v.claimedDigest()), v.verified(), v.verifiedAt(), v.verifiedBy());
    }

    private static String text(Digest digest) {
        return digest == null ? null : digest.toString();
    }
}
