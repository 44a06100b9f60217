package dev.evidencestore.cli;

import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;

/** How an artifact is bound: the options push, capture and unavailable share. */
final class ArtifactOptions {

    @Option(names = {"-i", "--incident"}, required = true, paramLabel = "KEY",
            description = "The incident's key, such as INC-1423.")
    String incident;

    @Option(names = "--name", paramLabel = "NAME",
            description = "The artifact's name in the incident (default: the file name without extension, as a slug).")
    String name;

    @Option(names = "--media-type", paramLabel = "TYPE",
            description = "The media type it is served with (default: by extension, else application/octet-stream).")
    String mediaType;

    @Option(names = "--captured-at", paramLabel = "TIME",
            description = "When it was captured, RFC 3339 such as 2026-06-18T10:20:00Z (default: now).")
    String capturedAt;

    @Option(names = "--description", paramLabel = "TEXT", description = "What it shows.")
    String description;

    @Option(names = "--capture", paramLabel = "KEY=VALUE", mapFallbackValue = "",
            description = "A detail of how it was captured (query, window, resourceVersion, commit…); repeatable.")
    Map<String, String> capture = new LinkedHashMap<>();

    @Option(names = "--capture-json", paramLabel = "JSON",
            description = "Capture details as one JSON object, merged under the --capture ones.")
    String captureJson;

    @Option(names = "--json", description = "Print each artifact as the service answered it, one JSON object a line.")
    boolean json;
}
