package dev.evidencestore.preview;

import java.time.Instant;

/** A moment marked on a chart, such as a deployment annotation or a timeline entry; {@code end} only for a span. */
public record Marker(Instant at, Instant end, String text) {

    public static Marker at(Instant at, String text) {
        return new Marker(at, null, text);
    }
}
