package dev.evidencestore.domain;

import java.util.List;

/**
 * The four-eyes rule: whoever accepts a finding or root cause must not be the one who proposed it, and must not
 * rest the acceptance only on their own verifications of evidence they uploaded themselves.
 */
public final class FourEyes {

    private FourEyes() {
    }

    /** Who uploaded a cited artifact, and who ran the verifications that make it count. */
    public record EvidenceCheck(String artifactId, String uploadedBy, List<String> verifiedBy) {

        boolean onlyBy(String reviewer) {
            return reviewer.equals(uploadedBy) && verifiedBy.stream().allMatch(reviewer::equals);
        }
    }

    public static void requireOtherProposer(String reviewer, Object record, String... proposers) {
        for (String proposer : proposers) {
            if (reviewer.equals(proposer)) {
                throw new Refusal(ProblemType.FOUR_EYES, reviewer + " proposed " + record
                        + "; someone else must accept it").with("reviewer", reviewer);
            }
        }
    }

    public static void requireIndependentEvidence(String reviewer, List<EvidenceCheck> checks) {
        List<String> alone = checks.stream().filter(check -> check.onlyBy(reviewer))
                .map(EvidenceCheck::artifactId).distinct().toList();
        if (!alone.isEmpty()) {
            throw new Refusal(ProblemType.FOUR_EYES, reviewer + " uploaded " + alone
                    + " and is the only one who verified it; someone else must verify it first")
                    .with("reviewer", reviewer)
                    .with("artifactIds", alone);
        }
    }
}
