package dev.evidencestore.preview;

import java.time.Instant;
import java.util.Optional;

/** A span of time, both ends included. */
public record Window(Instant from, Instant to) {

    public Window {
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("a window ends after it starts");
        }
    }

    public Window union(Window other) {
        return other == null ? this : new Window(from.isBefore(other.from) ? from : other.from,
                to.isAfter(other.to) ? to : other.to);
    }

    public boolean covers(Window other) {
        return !other.from.isBefore(from) && !other.to.isAfter(to);
    }

    public boolean contains(Instant at) {
        return !at.isBefore(from) && !at.isAfter(to);
    }

    /** A window written as ISO 8601 does it, {@code start/end}; empty when the text is not one. */
    public static Optional<Window> parse(String text) {
        if (text == null) {
            return Optional.empty();
        }
        String[] ends = text.split("/", -1);
        try {
            return ends.length != 2 ? Optional.empty()
                    : Optional.of(new Window(Instant.parse(ends[0].strip()), Instant.parse(ends[1].strip())));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public String toString() {
        return from + "/" + to;
    }
}
