package dev.evidencestore.preview;

import java.util.List;

/**
 * The incident drawn over a chart: its impact window shaded, and its timeline entries as numbered markers, so that
 * a reviewer sees what happened when beside what the data did.
 */
public record Overlay(Window impact, List<Marker> entries) {

    public static final Overlay NONE = new Overlay(null, List.of());

    public Overlay {
        entries = List.copyOf(entries);
    }
}
