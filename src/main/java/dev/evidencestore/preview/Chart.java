package dev.evidencestore.preview;

import java.util.List;
import java.util.Optional;

/**
 * A time-series chart as the evidence holds it: a title, the unit of its values (a Grafana unit name such as
 * {@code s}, {@code percent} or {@code short}), its lines, the levels it marks and the moments it annotates.
 */
public record Chart(String title, String unit, List<Series> series, List<Threshold> thresholds,
                    List<Marker> annotations) {

    public Chart {
        series = List.copyOf(series);
        thresholds = List.copyOf(thresholds);
        annotations = List.copyOf(annotations);
    }

    /** The time the lines cover, from the first value to the last. */
    public Optional<Window> window() {
        return series.stream().map(Series::window).flatMap(Optional::stream).reduce(Window::union);
    }

    public int points() {
        return series.stream().mapToInt(Series::size).sum();
    }
}
