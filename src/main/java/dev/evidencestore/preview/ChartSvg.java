package dev.evidencestore.preview;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * A time-series chart as inline SVG, drawn with presentation attributes alone (the pages' policy allows no inline
 * style and no script): labelled axes in UTC and in the chart's unit, one path per series, thresholds as dashed
 * levels, the dashboard's annotations as dotted markers, the incident's impact window shaded and its timeline
 * entries as numbered markers. Every text of the evidence is escaped. A series with more points than the plot has
 * room for is thinned to each column's lowest and highest value, so the drawing stays small and keeps every peak.
 */
public final class ChartSvg {

    public static final List<String> PALETTE = List.of("#1f60c4", "#c2410c", "#15803d", "#7e22ce", "#b45309",
            "#0e7490", "#be123c", "#4d7c0f");
    static final String ANNOTATION = "#1f60c4";
    static final String ENTRY = "#6b21a8";
    static final String IMPACT = "#f59e0b";

    private static final int WIDTH = 720;
    private static final int HEIGHT = 300;
    private static final int LEFT = 76;
    private static final int RIGHT = 16;
    private static final int TOP = 30;
    private static final int BOTTOM = 46;
    private static final int PLOT_WIDTH = WIDTH - LEFT - RIGHT;
    private static final int PLOT_HEIGHT = HEIGHT - TOP - BOTTOM;
    private static final int MAX_TICKS = 12;
    private static final String FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
    private static final long[] TIME_STEPS = {60_000, 120_000, 300_000, 600_000, 900_000, 1_800_000, 3_600_000,
            7_200_000, 10_800_000, 21_600_000, 43_200_000, 86_400_000, 172_800_000, 604_800_000};
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY_AND_CLOCK = DateTimeFormatter.ofPattern("MM-dd HH:mm", Locale.ROOT)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private final Chart chart;
    private final Overlay overlay;
    private final String id;
    private final long from;
    private final long to;
    private final double low;
    private final double high;
    private final double valueStep;
    private final StringBuilder svg = new StringBuilder(16_384);

    private ChartSvg(Chart chart, Overlay overlay, String id) {
        this.chart = chart;
        this.overlay = overlay;
        this.id = id;
        Window window = chart.window().orElseThrow(() -> new IllegalArgumentException("a chart needs data"));
        long start = window.from().toEpochMilli();
        long end = window.to().toEpochMilli();
        if (start == end) {
            start -= 300_000;
            end += 300_000;
        }
        this.from = start;
        this.to = end;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Series series : chart.series()) {
            for (double value : series.values()) {
                if (!Double.isNaN(value) && !Double.isInfinite(value)) {
                    min = Math.min(min, value);
                    max = Math.max(max, value);
                }
            }
        }
        for (Threshold threshold : chart.thresholds()) {
            min = Math.min(min, threshold.value());
            max = Math.max(max, threshold.value());
        }
        if (min > max) {
            min = 0;
            max = 1;
        }
        min = min >= 0 ? 0 : min;
        if (max <= min) {
            max = min + 1;
        }
        if (!Double.isFinite(max - min)) {
            // values near the ends of double's range: halves keep the span finite
            min /= 2;
            max /= 2;
        }
        this.valueStep = niceStep((max - min) / 5);
        this.low = Math.floor(min / valueStep) * valueStep;
        this.high = Math.ceil(max / valueStep) * valueStep;
    }

    /** The chart as an {@code <svg>} element; {@code id} makes its title and description IDs unique in the page. */
    public static String render(Chart chart, Overlay overlay, String id) {
        return new ChartSvg(chart, overlay, id).draw();
    }

    private String draw() {
        String titleId = id + "-title";
        String descId = id + "-desc";
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 ").append(WIDTH)
                .append(' ').append(HEIGHT).append("\" role=\"img\" aria-labelledby=\"").append(titleId)
                .append(' ').append(descId).append("\" font-family=\"").append(FONT).append("\" font-size=\"12\">");
        svg.append("<title id=\"").append(titleId).append("\">").append(escape(chart.title())).append("</title>");
        svg.append("<desc id=\"").append(descId).append("\">").append(escape(description())).append("</desc>");
        impact();
        valueAxis();
        timeAxis();
        thresholds();
        annotations();
        lines();
        entries();
        svg.append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(PLOT_WIDTH)
                .append("\" height=\"").append(PLOT_HEIGHT).append("\" fill=\"none\" stroke=\"#9aa3ad\"/>");
        return svg.append("</svg>").toString();
    }

    private String description() {
        String unit = Units.title(chart.unit());
        return chart.series().size() + " series" + (unit.isEmpty() ? "" : " in " + unit) + " from "
                + Instant.ofEpochMilli(from) + " to " + Instant.ofEpochMilli(to)
                + (overlay.impact() == null ? "" : "; the incident's impact window is shaded")
                + (chart.annotations().isEmpty() ? "" : "; " + chart.annotations().size() + " annotations are marked")
                + (overlay.entries().isEmpty() ? "" : "; timeline entries are numbered markers");
    }

    private void impact() {
        Window impact = overlay.impact();
        if (impact == null || impact.to().toEpochMilli() < from || impact.from().toEpochMilli() > to) {
            return;
        }
        double x1 = x(Math.max(from, impact.from().toEpochMilli()));
        double x2 = x(Math.min(to, impact.to().toEpochMilli()));
        svg.append("<rect class=\"impact\" x=\"").append(fixed(x1)).append("\" y=\"").append(TOP)
                .append("\" width=\"").append(fixed(Math.max(1, x2 - x1))).append("\" height=\"").append(PLOT_HEIGHT)
                .append("\" fill=\"").append(IMPACT).append("\" fill-opacity=\"0.16\"><title>impact ")
                .append(escape(impact.from() + " to " + impact.to())).append("</title></rect>");
        // at the foot of the band: the top of a plot is where lines at their peak run
        svg.append("<text x=\"").append(fixed(x1 + 4)).append("\" y=\"").append(TOP + PLOT_HEIGHT - 6)
                .append("\" fill=\"#92400e\" font-size=\"11\">impact</text>");
    }

    private void valueAxis() {
        // at most a dozen ticks, counted: a step below the values' precision would never move them on
        for (int tick = 0; tick <= MAX_TICKS && low + tick * valueStep <= high + valueStep / 2; tick++) {
            double value = low + tick * valueStep;
            double y = y(value);
            svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + PLOT_WIDTH).append("\" y1=\"")
                    .append(fixed(y)).append("\" y2=\"").append(fixed(y)).append("\" stroke=\"#e3e7eb\"/>");
            svg.append("<text x=\"").append(LEFT - 6).append("\" y=\"").append(fixed(y + 4))
                    .append("\" text-anchor=\"end\" fill=\"#4b5563\">")
                    .append(escape(Units.tick(value, valueStep, chart.unit()))).append("</text>");
        }
        String title = Units.title(chart.unit());
        if (!title.isEmpty()) {
            int middle = TOP + PLOT_HEIGHT / 2;
            svg.append("<text transform=\"translate(14 ").append(middle).append(") rotate(-90)\" text-anchor=\"middle\"")
                    .append(" fill=\"#4b5563\" font-size=\"11\">").append(escape(title)).append("</text>");
        }
    }

    private void timeAxis() {
        long span = to - from;
        // beyond the longest step, seven ticks over whatever span the data claims
        long step = Math.max(TIME_STEPS[TIME_STEPS.length - 1], span / 7 + 1);
        for (long candidate : TIME_STEPS) {
            if (span / candidate <= 7) {
                step = candidate;
                break;
            }
        }
        boolean oneDay = DAY.format(Instant.ofEpochMilli(from)).equals(DAY.format(Instant.ofEpochMilli(to)));
        DateTimeFormatter label = oneDay ? CLOCK : step >= 86_400_000 ? DAY : DAY_AND_CLOCK;
        long first = Math.floorDiv(from, step) * step + step;
        for (int tick = 0; tick <= MAX_TICKS && first + (long) tick * step <= to && first + (long) tick * step >= from;
             tick++) {
            long at = first + (long) tick * step;
            double x = x(at);
            svg.append("<line x1=\"").append(fixed(x)).append("\" x2=\"").append(fixed(x)).append("\" y1=\"")
                    .append(TOP).append("\" y2=\"").append(TOP + PLOT_HEIGHT).append("\" stroke=\"#eef1f4\"/>");
            svg.append("<text x=\"").append(fixed(x)).append("\" y=\"").append(TOP + PLOT_HEIGHT + 16)
                    .append("\" text-anchor=\"middle\" fill=\"#4b5563\">")
                    .append(label.format(Instant.ofEpochMilli(at))).append("</text>");
        }
        String title = "time (UTC)" + (oneDay ? ", " + DAY.format(Instant.ofEpochMilli(from)) : "");
        svg.append("<text x=\"").append(LEFT + PLOT_WIDTH / 2).append("\" y=\"").append(HEIGHT - 6)
                .append("\" text-anchor=\"middle\" fill=\"#4b5563\" font-size=\"11\">").append(title)
                .append("</text>");
    }

    private void thresholds() {
        for (Threshold threshold : chart.thresholds()) {
            double y = y(threshold.value());
            svg.append("<line class=\"threshold\" x1=\"").append(LEFT).append("\" x2=\"").append(LEFT + PLOT_WIDTH)
                    .append("\" y1=\"").append(fixed(y)).append("\" y2=\"").append(fixed(y)).append("\" stroke=\"")
                    .append(threshold.color()).append("\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"><title>")
                    .append("threshold ").append(escape(Units.value(threshold.value(), chart.unit())))
                    .append("</title></line>");
        }
    }

    private void annotations() {
        for (Marker marker : chart.annotations()) {
            long at = marker.at().toEpochMilli();
            if (at < from || at > to) {
                continue;
            }
            double x = x(at);
            svg.append("<line class=\"annotation\" x1=\"").append(fixed(x)).append("\" x2=\"").append(fixed(x))
                    .append("\" y1=\"").append(TOP).append("\" y2=\"").append(TOP + PLOT_HEIGHT).append("\" stroke=\"")
                    .append(ANNOTATION).append("\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"><title>")
                    .append(escape(CLOCK.format(marker.at()) + " UTC " + (marker.text() == null ? "" : marker.text())))
                    .append("</title></line>");
            svg.append("<polygon points=\"").append(fixed(x - 5)).append(',').append(TOP + PLOT_HEIGHT).append(' ')
                    .append(fixed(x + 5)).append(',').append(TOP + PLOT_HEIGHT).append(' ').append(fixed(x)).append(',')
                    .append(TOP + PLOT_HEIGHT - 8).append("\" fill=\"").append(ANNOTATION).append("\"/>");
        }
    }

    private void lines() {
        for (int i = 0; i < chart.series().size(); i++) {
            Series series = chart.series().get(i);
            svg.append("<path class=\"series\" fill=\"none\" stroke=\"").append(PALETTE.get(i % PALETTE.size()))
                    .append("\" stroke-width=\"1.75\" stroke-linejoin=\"round\" d=\"").append(path(series))
                    .append("\"><title>").append(escape(series.name())).append("</title></path>");
        }
    }

    private String path(Series series) {
        Pen pen = new Pen(series.size() > PLOT_WIDTH * 2);
        for (int i = 0; i < series.size(); i++) {
            double value = series.values()[i];
            if (Double.isNaN(value) || Double.isInfinite(value)) {
                pen.lift();
            } else {
                pen.to(x(series.times()[i]), y(value));
            }
        }
        pen.lift();
        return pen.d.toString();
    }

    /**
     * Writes a path's points. When thinning, each pixel column keeps only its first point's x with the column's
     * highest and lowest point, in the order they came, so that at most two points a column are written.
     */
    private static final class Pen {
        private final boolean thin;
        private final StringBuilder d = new StringBuilder(4096);
        private boolean down;
        private int column = Integer.MIN_VALUE;
        private double columnX;
        private double firstY;
        private double topY;
        private double bottomY;
        private int seen;
        private int topAt;
        private int bottomAt;

        Pen(boolean thin) {
            this.thin = thin;
        }

        void to(double x, double y) {
            if (!thin) {
                point(x, y);
                return;
            }
            int here = (int) x;
            if (here != column) {
                flush();
                column = here;
                columnX = x;
                firstY = topY = bottomY = y;
                seen = topAt = bottomAt = 0;
                return;
            }
            seen++;
            if (y < topY) {
                topY = y;
                topAt = seen;
            }
            if (y > bottomY) {
                bottomY = y;
                bottomAt = seen;
            }
        }

        void lift() {
            flush();
            down = false;
        }

        private void flush() {
            if (column == Integer.MIN_VALUE) {
                return;
            }
            point(columnX, firstY);
            boolean topFirst = topAt < bottomAt;
            int secondAt = topFirst ? topAt : bottomAt;
            int thirdAt = topFirst ? bottomAt : topAt;
            if (secondAt > 0) {
                point(columnX, topFirst ? topY : bottomY);
            }
            if (thirdAt > 0) {
                point(columnX, topFirst ? bottomY : topY);
            }
            column = Integer.MIN_VALUE;
        }

        private void point(double x, double y) {
            d.append(down ? 'L' : 'M').append(fixed(x)).append(' ').append(fixed(y));
            down = true;
        }
    }

    private void entries() {
        List<Marker> entries = overlay.entries();
        for (int i = 0; i < entries.size(); i++) {
            Marker entry = entries.get(i);
            long at = entry.at().toEpochMilli();
            if (at < from || at > to) {
                continue;
            }
            double x = x(at);
            String number = Integer.toString(i + 1);
            svg.append("<g class=\"entry\"><title>").append(escape(number + ". " + CLOCK.format(entry.at()) + " UTC "
                    + (entry.text() == null ? "" : entry.text()))).append("</title>");
            svg.append("<line x1=\"").append(fixed(x)).append("\" x2=\"").append(fixed(x)).append("\" y1=\"")
                    .append(TOP - 6).append("\" y2=\"").append(TOP + PLOT_HEIGHT).append("\" stroke=\"").append(ENTRY)
                    .append("\" stroke-width=\"1\"/>");
            svg.append("<circle cx=\"").append(fixed(x)).append("\" cy=\"").append(TOP - 13).append("\" r=\"9\" fill=\"")
                    .append(ENTRY).append("\"/>");
            svg.append("<text x=\"").append(fixed(x)).append("\" y=\"").append(TOP - 9)
                    .append("\" text-anchor=\"middle\" fill=\"#fff\" font-size=\"11\" font-weight=\"600\">")
                    .append(number).append("</text></g>");
        }
    }

    private double x(long at) {
        return LEFT + (double) (at - from) / (to - from) * PLOT_WIDTH;
    }

    private double y(double value) {
        return TOP + PLOT_HEIGHT - (value - low) / (high - low) * PLOT_HEIGHT;
    }

    /** 1, 2 or 5 times a power of ten: the step of a readable axis. */
    static double niceStep(double rough) {
        if (rough <= 0 || Double.isNaN(rough) || Double.isInfinite(rough)) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(rough)));
        double fraction = rough / power;
        return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
    }

    private static String fixed(double value) {
        return String.format(Locale.ROOT, "%.1f", value);
    }

    /** Text as SVG character data and attribute values take it. */
    static String escape(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> {
                    // XML 1.0 has no place for most control characters, even escaped
                    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }
}
