package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code capture} object of an artifact: what an adapter knows of how it captured the bytes, then the details the
 * person gave ({@code --capture-json}, then {@code --capture key=value}, the later winning), with
 * {@code collector} always this CLI and {@code host} this machine unless given.
 */
final class Provenance {

    private Provenance() {
    }

    static ObjectNode capture(ObjectNode known, ArtifactOptions options, Invocation invocation) {
        ObjectNode capture = known.deepCopy();
        if (options.captureJson != null) {
            JsonNode given;
            try {
                given = Json.read(options.captureJson);
            } catch (IllegalArgumentException e) {
                throw CommandFailure.usage("--capture-json: " + e.getMessage());
            }
            if (!given.isObject()) {
                throw CommandFailure.usage("--capture-json must be a JSON object");
            }
            capture.setAll((ObjectNode) given);
        }
        options.capture.forEach(capture::put);
        capture.put("collector", Version.COLLECTOR);
        if (!capture.has("host")) {
            host(invocation).ifPresent(host -> capture.put("host", host));
        }
        return capture;
    }

    /** The command line as it would be typed again, for {@code capture.command}. */
    static String commandLine(List<String> command) {
        StringBuilder line = new StringBuilder();
        for (String word : command) {
            line.append(line.length() == 0 ? "" : " ")
                    .append(word.matches("[A-Za-z0-9_./:=@%+,-]+") ? word : "'" + word.replace("'", "'\\''") + "'");
        }
        return line.toString();
    }

    private static Optional<String> host(Invocation invocation) {
        Optional<String> named = invocation.variable("HOSTNAME");
        if (named.isPresent()) {
            return named;
        }
        try {
            return Optional.of(InetAddress.getLocalHost().getHostName());
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    static ObjectNode of(Map<String, String> details) {
        ObjectNode node = Json.object();
        details.forEach(node::put);
        return node;
    }
}
