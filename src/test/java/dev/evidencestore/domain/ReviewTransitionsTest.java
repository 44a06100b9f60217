package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How findings and root causes move through review, without the service. */
class ReviewTransitionsTest {

    private static final FindingId FINDING = FindingId.parse("finding:demo:v1:INC-1:queue");
    private static final RootCauseId ROOT_CAUSE = new RootCauseId(new Workspace("demo"), new IncidentKey("INC-1"));

    @Test
    void aDecidedFindingIsFrozen() {
        assertDoesNotThrow(() -> ReviewTransitions.requireFindingProposed(FINDING, ReviewStatus.PROPOSED));
        for (ReviewStatus decided : new ReviewStatus[] {ReviewStatus.ACCEPTED, ReviewStatus.REJECTED}) {
            Refusal refusal = assertThrows(Refusal.class,
                    () -> ReviewTransitions.requireFindingProposed(FINDING, decided));
            assertEquals(ProblemType.FINDING_FROZEN, refusal.type());
            assertEquals(FINDING + " was " + decided.wire() + " and is frozen", refusal.getMessage());
            assertEquals(decided.wire(), refusal.extensions().get("findingStatus"));
        }
    }

    @Test
    void aRootCauseIsReviewedOnceAndOnlyARejectedOneIsProposedAgain() {
        assertDoesNotThrow(() -> ReviewTransitions.requireRootCauseProposed(ROOT_CAUSE, ReviewStatus.PROPOSED));
        assertDoesNotThrow(() -> ReviewTransitions.requireRootCauseRevisable(ROOT_CAUSE, ReviewStatus.PROPOSED));
        assertDoesNotThrow(() -> ReviewTransitions.requireRootCauseRevisable(ROOT_CAUSE, ReviewStatus.REJECTED));

        Refusal accepted = assertThrows(Refusal.class,
                () -> ReviewTransitions.requireRootCauseRevisable(ROOT_CAUSE, ReviewStatus.ACCEPTED));
        assertEquals(ProblemType.ROOT_CAUSE_FROZEN, accepted.type());
        assertEquals(ROOT_CAUSE + " was accepted and is frozen", accepted.getMessage());
        assertEquals("accepted", accepted.extensions().get("rootCauseStatus"));

        Refusal rejected = assertThrows(Refusal.class,
                () -> ReviewTransitions.requireRootCauseProposed(ROOT_CAUSE, ReviewStatus.REJECTED));
        assertEquals(ROOT_CAUSE + " was rejected; propose a revised root cause with PUT first", rejected.getMessage());
        assertEquals("rejected", rejected.extensions().get("rootCauseStatus"));
    }
}
