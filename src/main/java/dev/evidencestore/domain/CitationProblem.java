package dev.evidencestore.domain;

/** Why one cited ID cannot be cited: it names nothing, something of another incident, or the wrong kind. */
public record CitationProblem(String id, String reason) {

    public static final String UNKNOWN = "unknown";
    public static final String OTHER_INCIDENT = "belongs to another incident";
}
