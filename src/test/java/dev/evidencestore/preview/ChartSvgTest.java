package dev.evidencestore.preview;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChartSvgTest {

    private static final long START = Instant.parse("2026-06-18T08:40:00Z").toEpochMilli();

    @Test
    void drawsOnePathPerSeriesAndLabelsBothAxes() {
        String svg = ChartSvg.render(chart(List.of(line("a", 101, 1), line("b", 101, 2)), List.of()), Overlay.NONE,
                "c1");
        assertEquals(2, count(svg, "<path class=\"series\""));
        assertTrue(svg.contains("<title id=\"c1-title\">Latency</title>"), svg);
        assertTrue(svg.contains("aria-labelledby=\"c1-title c1-desc\""));
        assertTrue(svg.contains(">time (UTC), 2026-06-18</text>"));
        assertTrue(svg.contains(">seconds</text>"));
        assertTrue(svg.contains(">09:00</text>") && svg.contains(">10:00</text>"), "ticks every 15 minutes or so");
        assertFalse(svg.contains("style="), "the pages' policy allows no inline style");
    }

    @Test
    void marksTheImpactWindowTheTimelineEntriesAnnotationsAndThresholds() {
        Chart chart = new Chart("Latency", "s", List.of(line("a", 101, 1)), List.of(new Threshold(2, "#c4162a")),
                List.of(Marker.at(Instant.parse("2026-06-18T08:52:00Z"), "deploy")));
        Overlay overlay = new Overlay(new Window(Instant.parse("2026-06-18T09:00:00Z"),
                Instant.parse("2026-06-18T10:24:00Z")), List.of(
                Marker.at(Instant.parse("2026-06-18T09:00:00Z"), "alert fired"),
                Marker.at(Instant.parse("2026-06-18T07:00:00Z"), "before the chart"),
                Marker.at(Instant.parse("2026-06-18T09:31:00Z"), "rollback approved")));
        String svg = ChartSvg.render(chart, overlay, "c2");
        // the plot spans x 76 to 704 for 08:40 to 10:20: 09:00 is a fifth of the way, 08:52 0.12, 09:31 0.51
        assertTrue(svg.contains("<rect class=\"impact\" x=\"201.6\""), svg);
        assertTrue(svg.contains("width=\"502.4\""), "the impact window is cut at the chart's end");
        assertEquals(2, count(svg, "<g class=\"entry\">"), "the entry before the chart is not drawn");
        assertTrue(svg.contains("<title>1. 09:00 UTC alert fired</title><line x1=\"201.6\""));
        assertTrue(svg.contains("<title>3. 09:31 UTC rollback approved</title><line x1=\"396.3\""));
        assertTrue(svg.contains("<line class=\"annotation\" x1=\"151.4\""));
        assertTrue(svg.contains("<line class=\"threshold\""));
        assertTrue(svg.contains("<title>threshold 2 s</title>"));
    }

    @Test
    void escapesEveryTextOfTheEvidence() {
        Chart chart = new Chart("<script>alert(1)</script>", "s", List.of(line("a\"><b", 10, 1)), List.of(),
                List.of(Marker.at(Instant.ofEpochMilli(START + 60_000), "x & <y>")));
        String svg = ChartSvg.render(chart, Overlay.NONE, "c3");
        assertFalse(svg.contains("<script>"));
        assertTrue(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assertTrue(svg.contains("<title>a&quot;&gt;&lt;b</title>"));
        assertTrue(svg.contains("x &amp; &lt;y&gt;"));
    }

    @Test
    void aLongSeriesIsThinnedToAFewPointsAColumnAndKeepsItsPeak() {
        int n = 100_000;
        long[] times = new long[n];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = START + i * 1000L;
            values[i] = i == 54_321 ? 1000 : Math.sin(i / 500.0);
        }
        String svg = ChartSvg.render(chart(List.of(new Series("s", times, values)), List.of()), Overlay.NONE, "c4");
        Matcher d = Pattern.compile(" d=\"([^\"]*)\"").matcher(svg);
        assertTrue(d.find());
        int points = count(d.group(1), "L") + count(d.group(1), "M");
        assertTrue(points <= 628 * 3 + 1, points + " points");
        assertTrue(d.group(1).contains(" 30.0"), "the peak reaches the top of the plot");
    }

    @Test
    void aGapBreaksTheLine() {
        double[] values = {1, 2, Double.NaN, 3, 4};
        long[] times = {START, START + 60_000, START + 120_000, START + 180_000, START + 240_000};
        String svg = ChartSvg.render(chart(List.of(new Series("s", times, values)), List.of()), Overlay.NONE, "c5");
        Matcher d = Pattern.compile(" d=\"([^\"]*)\"").matcher(svg);
        assertTrue(d.find());
        assertEquals(2, count(d.group(1), "M"), d.group(1));
    }

    @Test
    void valuesAndTimesAtTheEndsOfTheirRangesDrawAFewTicksAndNoMore() {
        long[] times = {Long.MIN_VALUE / 2, 0, Long.MAX_VALUE / 2};
        double[] values = {-Double.MAX_VALUE, 0, Double.MAX_VALUE};
        String svg = ChartSvg.render(chart(List.of(new Series("extreme", times, values)),
                List.of(new Threshold(1e-300, "#c4162a"))), Overlay.NONE, "c6");
        assertTrue(count(svg, "<text ") <= 2 * 13 + 2, "ticks are counted");
        assertEquals(1, count(svg, "<path class=\"series\""));
    }

    @Test
    void aStepBelowTheValuesPrecisionEndsToo() {
        long[] times = {START, START + 60_000};
        // below zero, so that the axis does not start at zero: 1e17 moves in steps of 16, the axis in steps of 5
        double[] values = {-1e17 - 16, -1e17};
        String svg = ChartSvg.render(chart(List.of(new Series("flat", times, values)), List.of()), Overlay.NONE, "c7");
        assertTrue(count(svg, "<text ") <= 2 * 13 + 2);
    }

    private static Chart chart(List<Series> series, List<Threshold> thresholds) {
        return new Chart("Latency", "s", series, thresholds, List.of());
    }

    private static Series line(String name, int points, double scale) {
        long[] times = new long[points];
        double[] values = new double[points];
        for (int i = 0; i < points; i++) {
            times[i] = START + i * 60_000L;
            values[i] = scale * (1 + Math.sin(i / 10.0));
        }
        return new Series(name, times, values);
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            count++;
        }
        return count;
    }
}
