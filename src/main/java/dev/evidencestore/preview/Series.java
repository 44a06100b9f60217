package dev.evidencestore.preview;

import java.time.Instant;
import java.util.Optional;

/**
 * One line of a chart: values at times, in epoch milliseconds, in time order. A NaN value is a gap the line does
 * not bridge, as Grafana draws a null.
 */
public record Series(String name, long[] times, double[] values) {

    public Series {
        if (times.length != values.length) {
            throw new IllegalArgumentException("a series needs one value per time");
        }
    }

    public int size() {
        return times.length;
    }

    /** The first and last time with a value, if any. */
    public Optional<Window> window() {
        long from = Long.MAX_VALUE;
        long to = Long.MIN_VALUE;
        for (int i = 0; i < times.length; i++) {
            if (!Double.isNaN(values[i])) {
                from = Math.min(from, times[i]);
                to = Math.max(to, times[i]);
            }
        }
        return from > to ? Optional.empty()
                : Optional.of(new Window(Instant.ofEpochMilli(from), Instant.ofEpochMilli(to)));
    }
}
