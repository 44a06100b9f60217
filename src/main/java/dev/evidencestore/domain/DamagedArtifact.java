package dev.evidencestore.domain;

import java.time.Instant;
import java.util.List;

/**
 * An artifact whose stored bytes no longer hash to its digest, with everything that rests on it. The computed
 * digest is what the bytes hashed to at the last check; null when they could not be read at all.
 */
public record DamagedArtifact(ArtifactId id, Digest recordedDigest, Digest computedDigest, Instant damagedSince,
                              Instant lastChecked, List<Referrer> citations) {

    public DamagedArtifact {
        citations = List.copyOf(citations);
    }
}
