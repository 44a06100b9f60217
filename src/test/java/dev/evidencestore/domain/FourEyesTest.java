package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The four-eyes rule alone, without the service: who may accept what. */
class FourEyesTest {

    private static final String ISSUER = "https://idp.example";
    private static final Attribution ALICE = by("alice", "alice");
    private static final Attribution BOB = by("bob", "bob");
    private static final Attribution CAROL = by("carol", "carol");

    private static Attribution by(String name, String subject) {
        return new Attribution(name, new Principal(ISSUER, subject));
    }

    @Test
    void theProposerMayNotAcceptTheirOwnRecord() {
        Refusal refusal = assertThrows(Refusal.class,
                () -> FourEyes.requireOtherProposer(ALICE, "finding:demo:v1:INC-1:x", CAROL, ALICE));
        assertEquals(ProblemType.FOUR_EYES, refusal.type());
        assertEquals("alice proposed finding:demo:v1:INC-1:x; someone else must accept it", refusal.getMessage());
        assertEquals("alice", refusal.extensions().get("reviewer"));
    }

    @Test
    void someoneElseMayAccept() {
        assertDoesNotThrow(() -> FourEyes.requireOtherProposer(BOB, "finding:demo:v1:INC-1:x", CAROL, ALICE));
    }

    @Test
    void evidenceUploadedAndVerifiedOnlyByTheReviewerDoesNotCount() {
        List<FourEyes.EvidenceCheck> checks = List.of(
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:a", BOB, List.of(BOB)),
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:b", BOB, List.of(BOB, CAROL)),
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:c", CAROL, List.of(BOB)));
        Refusal refusal = assertThrows(Refusal.class, () -> FourEyes.requireIndependentEvidence(BOB, checks));
        assertEquals(ProblemType.FOUR_EYES, refusal.type());
        assertEquals(List.of("artifact:demo:v1:INC-1:a"), refusal.extensions().get("artifactIds"));
        assertEquals("bob uploaded [artifact:demo:v1:INC-1:a] and is the only one who verified it; someone else "
                + "must verify it first", refusal.getMessage());
    }

    @Test
    void evidenceSomebodyElseUploadedOrVerifiedCounts() {
        assertDoesNotThrow(() -> FourEyes.requireIndependentEvidence(BOB, List.of(
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:b", BOB, List.of(BOB, CAROL)),
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:c", CAROL, List.of(BOB)))));
    }

    @Test
    void oneSubjectUnderAnotherNameIsStillTheProposer() {
        Refusal refusal = assertThrows(Refusal.class,
                () -> FourEyes.requireOtherProposer(by("Alice", "alice"), "finding:demo:v1:INC-1:x", ALICE));
        assertEquals("Alice proposed finding:demo:v1:INC-1:x; someone else must accept it", refusal.getMessage());
        assertThrows(Refusal.class, () -> FourEyes.requireIndependentEvidence(by("Alice", "alice"), List.of(
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:a", ALICE, List.of(by("ALICE", "alice"))))));
    }

    @Test
    void twoSubjectsSharingANameAreTwoPeople() {
        assertDoesNotThrow(() -> FourEyes.requireOtherProposer(by("alice", "alice-2"), "finding:demo:v1:INC-1:x",
                ALICE));
        assertDoesNotThrow(() -> FourEyes.requireOtherProposer(new Attribution("alice",
                new Principal("https://other-idp.example", "alice")), "finding:demo:v1:INC-1:x", ALICE));
    }

    @Test
    void subjectsCompareExactly() {
        assertDoesNotThrow(() -> FourEyes.requireOtherProposer(by("alice", "Alice"), "finding:demo:v1:INC-1:x",
                ALICE));
    }

    /** Rows written before principals were recorded carry only a name, and compare by it. */
    @Test
    void aRecordWithoutPrincipalComparesByName() {
        Attribution recorded = new Attribution("alice", null);
        assertThrows(Refusal.class, () -> FourEyes.requireOtherProposer(by("alice", "alice-2"),
                "finding:demo:v1:INC-1:x", recorded));
        assertDoesNotThrow(() -> FourEyes.requireOtherProposer(by("Alice", "alice"), "finding:demo:v1:INC-1:x",
                recorded));
        assertThrows(Refusal.class, () -> FourEyes.requireIndependentEvidence(by("alice", "alice-2"), List.of(
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:a", recorded, List.of(by("alice", "alice-2"))))));
    }
}
