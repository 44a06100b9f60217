package dev.evidencestore.domain;

/**
 * How a finding or a root cause moves through review. A finding is proposed, revised while proposed, and decided
 * once: accepted or rejected, it is frozen. A root cause is decided once too, but a rejected one may be proposed
 * again (a revised root cause replaces it); an accepted one is frozen.
 */
public final class ReviewTransitions {

    private ReviewTransitions() {
    }

    /** A finding may be revised or reviewed only while it is proposed. */
    public static void requireFindingProposed(FindingId finding, ReviewStatus status) {
        if (status != ReviewStatus.PROPOSED) {
            throw new Refusal(ProblemType.FINDING_FROZEN, finding + " was " + status.wire() + " and is frozen")
                    .with("findingStatus", status.wire());
        }
    }

    /** A root cause may be reviewed only while it is proposed. */
    public static void requireRootCauseProposed(RootCauseId rootCause, ReviewStatus status) {
        if (status != ReviewStatus.PROPOSED) {
            throw rootCauseFrozen(rootCause, status);
        }
    }

    /** A root cause may be proposed again unless it was accepted. */
    public static void requireRootCauseRevisable(RootCauseId rootCause, ReviewStatus status) {
        if (status == ReviewStatus.ACCEPTED) {
            throw rootCauseFrozen(rootCause, status);
        }
    }

    private static Refusal rootCauseFrozen(RootCauseId rootCause, ReviewStatus status) {
        String detail = status == ReviewStatus.ACCEPTED ? rootCause + " was accepted and is frozen"
                : rootCause + " was rejected; propose a revised root cause with PUT first";
        return new Refusal(ProblemType.ROOT_CAUSE_FROZEN, detail).with("rootCauseStatus", status.wire());
    }
}
