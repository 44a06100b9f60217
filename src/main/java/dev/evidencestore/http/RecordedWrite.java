package dev.evidencestore.http;

import jakarta.enterprise.context.RequestScoped;

/** Whether the current request's entry was written with its write, so the audit filter must not write another. */
@RequestScoped
public class RecordedWrite {

    private boolean recorded;

    void markRecorded() {
        recorded = true;
    }

    boolean recorded() {
        return recorded;
    }
}
