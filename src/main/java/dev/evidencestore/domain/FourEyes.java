package dev.evidencestore.domain;

import java.util.List;

/**
 * The four-eyes rule: whoever accepts a finding or root cause must not be the one who proposed it, and must not
 * rest the acceptance only on their own verifications of evidence they uploaded themselves. Parties are compared by
 * principal ({@link Attribution#isSame}), so a second spelling of one's name is no second pair of eyes.
 */
public final class FourEyes {

    private FourEyes() {
    }

    /** Who uploaded a cited artifact, and who ran the verifications that make it count. */
    public record EvidenceCheck(String artifactId, Attribution uploadedBy, List<Attribution> verifiedBy) {

        boolean onlyBy(Attribution reviewer) {
            return reviewer.isSame(uploadedBy) && verifiedBy.stream().allMatch(reviewer::isSame);
        }
    }

    public static void requireOtherProposer(Attribution reviewer, Object record, Attribution... proposers) {
        for (Attribution proposer : proposers) {
            if (reviewer.isSame(proposer)) {
                throw new Refusal(ProblemType.FOUR_EYES, reviewer.name() + " proposed " + record
                        + "; someone else must accept it").with("reviewer", reviewer.name());
            }
        }
    }

    public static void requireIndependentEvidence(Attribution reviewer, List<EvidenceCheck> checks) {
        List<String> alone = checks.stream().filter(check -> check.onlyBy(reviewer))
                .map(EvidenceCheck::artifactId).distinct().toList();
        if (!alone.isEmpty()) {
            throw new Refusal(ProblemType.FOUR_EYES, reviewer.name() + " uploaded " + alone
                    + " and is the only one who verified it; someone else must verify it first")
                    .with("reviewer", reviewer.name())
                    .with("artifactIds", alone);
        }
    }
}
