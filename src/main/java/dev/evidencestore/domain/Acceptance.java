package dev.evidencestore.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What accepting a finding or a root cause requires of what it rests on. A finding is accepted only on evidence
 * re-verified since it was proposed; a root cause only when every finding it cites is accepted and one of them
 * supports it. Who may accept is {@link FourEyes}.
 */
public final class Acceptance {

    private Acceptance() {
    }

    /** An artifact as a finding cites it: the digest the citation pinned, and its latest verification, if any. */
    public record PinnedEvidence(ArtifactId artifact, Digest pinned, VerificationResult latest) {

        boolean verifiedSince(Instant proposedAt) {
            return latest != null && latest.verified() && latest.verifiedAt().isAfter(proposedAt)
                    && latest.recordedDigest().equals(pinned);
        }
    }

    /** A finding as a root cause cites it. */
    public record CitedFinding(FindingId id, ReviewStatus status, FindingKind kind) {
    }

    /** Each cited artifact's latest verification must pass, match the pinned digest, and postdate the proposal. */
    public static void requireVerifiedSince(Instant proposedAt, List<PinnedEvidence> evidence) {
        List<String> unverified = evidence.stream().filter(pinned -> !pinned.verifiedSince(proposedAt))
                .map(pinned -> pinned.artifact().toString()).toList();
        if (!unverified.isEmpty()) {
            throw new Refusal(ProblemType.UNVERIFIED_EVIDENCE, "verify " + unverified
                    + " (a passing verification recorded after the finding was proposed) before accepting it")
                    .with("artifactIds", unverified)
                    .with("proposedAt", proposedAt.toString());
        }
    }

    /** Every cited finding must be accepted, and at least one of them must be a supporting finding. */
    public static void requireSupported(List<CitedFinding> findings) {
        List<String> reasons = new ArrayList<>();
        List<String> pending = new ArrayList<>();
        boolean supported = false;
        for (CitedFinding finding : findings) {
            if (finding.status() != ReviewStatus.ACCEPTED) {
                pending.add(finding.id().toString());
                reasons.add(finding.id() + " is " + finding.status().wire() + ", not accepted");
            } else if (finding.kind() == FindingKind.SUPPORTING) {
                supported = true;
            }
        }
        if (!supported) {
            reasons.add("no accepted supporting finding is cited");
        }
        if (!reasons.isEmpty()) {
            throw new Refusal(ProblemType.UNSUPPORTED_ROOT_CAUSE,
                    "the root cause cannot be accepted: " + String.join("; ", reasons))
                    .with("reasons", reasons)
                    .with("findingIds", pending);
        }
    }
}
