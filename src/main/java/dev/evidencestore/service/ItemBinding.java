package dev.evidencestore.service;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Refusal;

/**
 * What became of an item bound together with others: its artifact bound to {@code digest}, by this call
 * ({@code created}) or before, or, when {@code refusal} is set, its name found bound to the other {@code digest}.
 */
public record ItemBinding(ArtifactId id, Digest digest, boolean created, Refusal refusal) {

    public boolean refused() {
        return refusal != null;
    }
}
