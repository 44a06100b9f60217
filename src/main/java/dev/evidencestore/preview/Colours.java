package dev.evidencestore.preview;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Colours as dashboards name them, made safe for an SVG attribute: Grafana's named colours (with their
 * {@code dark-}, {@code semi-dark-}, {@code light-} and {@code super-light-} shades) and hex values; anything else
 * is the threshold red.
 */
final class Colours {

    static final String DEFAULT = "#c4162a";
    private static final Pattern HEX = Pattern.compile("#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})");
    private static final Map<String, String> NAMED = Map.of(
            "green", "#37872d",
            "red", "#c4162a",
            "orange", "#fa6400",
            "yellow", "#e0b400",
            "blue", "#1f60c4",
            "purple", "#8f3bb8",
            "critical", "#c4162a",
            "warning", "#fa6400",
            "ok", "#37872d");

    private Colours() {
    }

    static String of(String colour) {
        if (colour == null) {
            return DEFAULT;
        }
        String name = colour.strip().toLowerCase(Locale.ROOT);
        if (HEX.matcher(name).matches()) {
            return name;
        }
        name = name.replaceFirst("^(super-light|semi-dark|dark|light)-", "");
        return NAMED.getOrDefault(name, DEFAULT);
    }
}
