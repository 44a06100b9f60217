package dev.evidencestore.preview;

import java.util.List;

/** A Grafana dashboard snapshot: a chart for each panel with data, and the panels that could not be drawn. */
public record DashboardPreview(String title, String uid, List<Chart> charts, List<Undrawn> undrawn, Facts facts)
        implements Preview {

    public DashboardPreview {
        charts = List.copyOf(charts);
        undrawn = List.copyOf(undrawn);
    }

    /** A panel listed by its title and type, since it holds nothing a time-series chart can show. */
    public record Undrawn(String title, String type, String reason) {
    }
}
