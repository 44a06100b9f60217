package dev.evidencestore.audit;

import jakarta.enterprise.context.RequestScoped;

import java.util.UUID;

/**
 * The request ID of the write under way, which its audit entry carries: a record that must later name its entry's
 * place in the log (a review, whose signed statement names its leaf) keeps this ID, and finds the entry by it once
 * the sequencer has numbered it. The writer begins it before the write runs; outside an audited write it is null.
 */
@RequestScoped
public class EntryLink {

    private UUID requestId;

    /** Called by the writer, before the write, with the ID its entry will carry. */
    public void begin(UUID id) {
        requestId = id;
    }

    /** The ID of the write under way, or null when no audited write is. */
    public UUID requestId() {
        return requestId;
    }
}
