package dev.evidencestore.api;

import dev.evidencestore.domain.Citation;

/** A pinned citation: the artifact, the digest it had when cited, and its latest verification (or null). */
public record CitationResponse(String artifactId, String digest, VerificationResponse latestVerification) {

    static CitationResponse of(Citation citation) {
        return new CitationResponse(citation.artifactId().toString(), citation.digest().toString(),
                citation.latestVerification() == null ? null : VerificationResponse.of(citation.latestVerification()));
    }
}
