package dev.evidencestore.api;

import dev.evidencestore.domain.Refusal;

/** Request bodies that must be present. */
final class Bodies {

    private Bodies() {
    }

    static <T> T required(T body) {
        if (body == null) {
            throw Refusal.invalid("body", "is required");
        }
        return body;
    }
}
