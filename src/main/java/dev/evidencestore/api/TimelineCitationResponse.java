package dev.evidencestore.api;

import dev.evidencestore.domain.TimelineCitation;

public record TimelineCitationResponse(String artifactId, String digest) {

    static TimelineCitationResponse of(TimelineCitation citation) {
        return new TimelineCitationResponse(citation.artifactId().toString(), citation.digest().toString());
    }
}
