package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What accepting a finding or a root cause needs of what it rests on, without the service. */
class AcceptanceTest {

    private static final Instant PROPOSED = Instant.parse("2026-06-18T10:00:00Z");
    private static final ArtifactId ARTIFACT = ArtifactId.parse("artifact:demo:v1:INC-1:grafana");
    private static final Digest PINNED = Digest.parse("sha256:" + "a".repeat(64));
    private static final Digest OTHER = Digest.parse("sha256:" + "b".repeat(64));

    private static VerificationResult verification(boolean verified, Instant at, Digest recorded) {
        return new VerificationResult(ARTIFACT, recorded, recorded, null, verified, at, "bob");
    }

    private static Acceptance.PinnedEvidence pinned(VerificationResult latest) {
        return new Acceptance.PinnedEvidence(ARTIFACT, PINNED, latest);
    }

    @Test
    void aPassingVerificationAfterTheProposalOfThePinnedDigestCounts() {
        assertDoesNotThrow(() -> Acceptance.requireVerifiedSince(PROPOSED,
                List.of(pinned(verification(true, PROPOSED.plusSeconds(1), PINNED)))));
    }

    @Test
    void evidenceNotVerifiedSinceTheProposalIsRefused() {
        for (VerificationResult latest : new VerificationResult[] {null,
                verification(true, PROPOSED, PINNED),
                verification(true, PROPOSED.minusSeconds(60), PINNED),
                verification(false, PROPOSED.plusSeconds(1), PINNED),
                verification(true, PROPOSED.plusSeconds(1), OTHER)}) {
            Refusal refusal = assertThrows(Refusal.class,
                    () -> Acceptance.requireVerifiedSince(PROPOSED, List.of(pinned(latest))), String.valueOf(latest));
            assertEquals(ProblemType.UNVERIFIED_EVIDENCE, refusal.type());
            assertEquals(List.of(ARTIFACT.toString()), refusal.extensions().get("artifactIds"));
            assertEquals(PROPOSED.toString(), refusal.extensions().get("proposedAt"));
        }
    }

    @Test
    void aRootCauseNeedsEveryFindingAcceptedAndOneSupporting() {
        FindingId supporting = FindingId.parse("finding:demo:v1:INC-1:queue");
        FindingId gap = FindingId.parse("finding:demo:v1:INC-1:intercom");
        assertDoesNotThrow(() -> Acceptance.requireSupported(List.of(
                new Acceptance.CitedFinding(supporting, ReviewStatus.ACCEPTED, FindingKind.SUPPORTING),
                new Acceptance.CitedFinding(gap, ReviewStatus.ACCEPTED, FindingKind.GAP))));

        Refusal pending = assertThrows(Refusal.class, () -> Acceptance.requireSupported(List.of(
                new Acceptance.CitedFinding(supporting, ReviewStatus.PROPOSED, FindingKind.SUPPORTING),
                new Acceptance.CitedFinding(gap, ReviewStatus.ACCEPTED, FindingKind.GAP))));
        assertEquals(ProblemType.UNSUPPORTED_ROOT_CAUSE, pending.type());
        assertEquals(List.of(supporting.toString()), pending.extensions().get("findingIds"));
        assertEquals(List.of(supporting + " is proposed, not accepted", "no accepted supporting finding is cited"),
                pending.extensions().get("reasons"));

        Refusal unsupported = assertThrows(Refusal.class, () -> Acceptance.requireSupported(List.of(
                new Acceptance.CitedFinding(gap, ReviewStatus.ACCEPTED, FindingKind.GAP))));
        assertEquals("the root cause cannot be accepted: no accepted supporting finding is cited",
                unsupported.getMessage());
        assertEquals(List.of(), unsupported.extensions().get("findingIds"));
    }
}
