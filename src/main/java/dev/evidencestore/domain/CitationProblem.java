package dev.evidencestore.domain;

import java.util.List;

/** Why one cited ID cannot be cited: it names nothing, something of another incident, or the wrong kind. */
public record CitationProblem(String id, String reason) {

    public static final String UNKNOWN = "unknown";
    public static final String OTHER_INCIDENT = "belongs to another incident";

    /** The 422 refusing a whole citation list because of these offenders. */
    public static Refusal refusal(String what, List<CitationProblem> problems) {
        return new Refusal(ProblemType.INVALID_CITATION, problems.size() + " cited " + what
                + "(s) cannot be cited here: " + problems.stream().map(CitationProblem::id).toList())
                .with("citations", List.copyOf(problems));
    }
}
