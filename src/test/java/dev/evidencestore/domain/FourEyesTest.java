package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The four-eyes rule alone, without the service: who may accept what. */
class FourEyesTest {

    @Test
    void theProposerMayNotAcceptTheirOwnRecord() {
        Refusal refusal = assertThrows(Refusal.class,
                () -> FourEyes.requireOtherProposer("alice", "finding:demo:v1:INC-1:x", "carol", "alice"));
        assertEquals(ProblemType.FOUR_EYES, refusal.type());
        assertEquals("alice proposed finding:demo:v1:INC-1:x; someone else must accept it", refusal.getMessage());
        assertEquals("alice", refusal.extensions().get("reviewer"));
    }

    @Test
    void someoneElseMayAccept() {
        assertDoesNotThrow(() -> FourEyes.requireOtherProposer("bob", "finding:demo:v1:INC-1:x", "carol", "alice"));
    }

    @Test
    void evidenceUploadedAndVerifiedOnlyByTheReviewerDoesNotCount() {
        List<FourEyes.EvidenceCheck> checks = List.of(
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:a", "bob", List.of("bob")),
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:b", "bob", List.of("bob", "carol")),
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:c", "carol", List.of("bob")));
        Refusal refusal = assertThrows(Refusal.class, () -> FourEyes.requireIndependentEvidence("bob", checks));
        assertEquals(ProblemType.FOUR_EYES, refusal.type());
        assertEquals(List.of("artifact:demo:v1:INC-1:a"), refusal.extensions().get("artifactIds"));
        assertEquals("bob uploaded [artifact:demo:v1:INC-1:a] and is the only one who verified it; someone else "
                + "must verify it first", refusal.getMessage());
    }

    @Test
    void evidenceSomebodyElseUploadedOrVerifiedCounts() {
        assertDoesNotThrow(() -> FourEyes.requireIndependentEvidence("bob", List.of(
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:b", "bob", List.of("bob", "carol")),
                new FourEyes.EvidenceCheck("artifact:demo:v1:INC-1:c", "carol", List.of("bob")))));
    }
}
