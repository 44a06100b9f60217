package dev.evidencestore.preview;

import java.util.Locale;

/**
 * Values as a chart labels them, in the units Grafana names: {@code s} and {@code ms}, {@code percent} and
 * {@code percentunit}, rates, {@code short} with SI suffixes, bytes. A unit Grafana does not know, such as a
 * collector's "ratio of CPU limit", labels the axis and leaves the values plain.
 */
public final class Units {

    private Units() {
    }

    /** The axis title for a unit; empty for counts. */
    public static String title(String unit) {
        return switch (unit == null ? "" : unit) {
            case "s" -> "seconds";
            case "ms" -> "milliseconds";
            case "percent", "percentunit" -> "percent";
            case "reqps" -> "requests per second";
            case "ops" -> "operations per second";
            case "bytes", "decbytes" -> "bytes";
            case "short", "none", "" -> "";
            default -> unit;
        };
    }

    /** A tick label: as many decimals as the distance between ticks needs. */
    public static String tick(double value, double step, String unit) {
        return format(value, decimals(scaled(step, unit)), unit);
    }

    /** A value as a legend shows it: three significant digits. */
    public static String value(double value, String unit) {
        if (Double.isNaN(value)) {
            return "–";
        }
        double shown = Math.abs(scaled(value, unit));
        boolean whole = shown == Math.rint(shown);
        int decimals = whole || shown >= 100 ? 0 : shown >= 10 ? 1 : shown >= 1 ? 2 : 3;
        return format(value, decimals, unit);
    }

    private static double scaled(double value, String unit) {
        return "percentunit".equals(unit) ? value * 100 : value;
    }

    private static int decimals(double step) {
        if (step <= 0 || Double.isNaN(step)) {
            return 0;
        }
        return (int) Math.max(0, Math.min(4, Math.ceil(-Math.log10(step) - 1e-9)));
    }

    private static String format(double value, int decimals, String unit) {
        String u = unit == null ? "" : unit;
        return switch (u) {
            case "s" -> plain(value, decimals) + " s";
            case "ms" -> plain(value, decimals) + " ms";
            case "percent" -> plain(value, decimals) + "%";
            case "percentunit" -> plain(value * 100, Math.max(0, decimals - 2)) + "%";
            case "reqps" -> si(value, decimals) + " req/s";
            case "ops" -> si(value, decimals) + " ops/s";
            case "short" -> si(value, decimals);
            case "bytes" -> binary(value);
            default -> plain(value, decimals);
        };
    }

    private static String plain(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }

    private static String si(double value, int decimals) {
        double magnitude = Math.abs(value);
        String[] suffixes = {"", " K", " M", " B", " T"};
        int index = 0;
        while (magnitude >= 1000 && index < suffixes.length - 1) {
            magnitude /= 1000;
            value /= 1000;
            index++;
        }
        int places = index == 0 ? decimals : magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
        String text = String.format(Locale.ROOT, "%." + places + "f", value);
        if (index > 0 && text.contains(".")) {
            text = text.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return text + suffixes[index];
    }

    private static String binary(double value) {
        String[] suffixes = {"B", "KiB", "MiB", "GiB", "TiB"};
        double magnitude = value;
        int index = 0;
        while (Math.abs(magnitude) >= 1024 && index < suffixes.length - 1) {
            magnitude /= 1024;
            index++;
        }
        return String.format(Locale.ROOT, index == 0 ? "%.0f %s" : "%.1f %s", magnitude, suffixes[index]);
    }
}
