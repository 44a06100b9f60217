package dev.evidencestore.cli;

import java.util.Locale;
import java.util.Map;

/** The media type an artifact is bound with when none is given, by file extension; the pages choose previews by it. */
final class MediaTypes {

    static final String OCTETS = "application/octet-stream";

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
            Map.entry("json", "application/json"),
            Map.entry("diff", "text/x-diff"),
            Map.entry("patch", "text/x-patch"),
            Map.entry("txt", "text/plain"),
            Map.entry("log", "text/plain"),
            Map.entry("md", "text/markdown"),
            Map.entry("csv", "text/csv"),
            Map.entry("yaml", "application/yaml"),
            Map.entry("yml", "application/yaml"),
            Map.entry("html", "text/html"),
            Map.entry("png", "image/png"),
            Map.entry("jpg", "image/jpeg"),
            Map.entry("jpeg", "image/jpeg"),
            Map.entry("svg", "image/svg+xml"),
            Map.entry("pdf", "application/pdf"),
            Map.entry("zip", "application/zip"),
            Map.entry("gz", "application/gzip"),
            Map.entry("tar", "application/x-tar"));

    private MediaTypes() {
    }

    static String ofFileName(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? OCTETS : BY_EXTENSION.getOrDefault(fileName.substring(dot + 1).toLowerCase(Locale.ROOT),
                OCTETS);
    }
}
