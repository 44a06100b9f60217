package dev.evidencestore.api;

import dev.evidencestore.domain.DamagedArtifact;

import java.time.Instant;
import java.util.List;

/** An artifact whose stored bytes no longer hash to its digest; {@code computedDigest} null: unreadable. */
public record DamagedArtifactResponse(String artifactId, String recordedDigest, String computedDigest,
                                      Instant damagedSince, Instant lastChecked, List<ReferrerResponse> citations) {

    static DamagedArtifactResponse of(DamagedArtifact damaged) {
        return new DamagedArtifactResponse(damaged.id().toString(), damaged.recordedDigest().toString(),
                damaged.computedDigest() == null ? null : damaged.computedDigest().toString(),
                damaged.damagedSince(), damaged.lastChecked(),
                damaged.citations().stream().map(ReferrerResponse::of).toList());
    }
}
