package dev.evidencestore.domain;

/** What a record may cite: given an artifact of the same incident, why it may not be cited, or null when it may. */
@FunctionalInterface
public interface CitationRule {

    /** Any artifact of the incident. */
    CitationRule ANY = artifact -> null;

    String refusal(Artifact artifact);
}
