package dev.evidencestore.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * {@code evidence capture grafana}: Grafana has no "snapshot with data" call, so this fetches the dashboard by UID,
 * runs each panel's queries for the window through {@code /api/ds/query}, and writes a snapshot in the data-frame
 * shape the demo uses (each panel's {@code snapshotData}, fields with their values), recording the dashboard UID,
 * the panel IDs, the window and the queries.
 */
@Command(name = "grafana", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Snapshot a Grafana dashboard's panels with their data for a time window, and push it.")
final class GrafanaCapture implements Callable<Integer> {

    @ParentCommand
    CaptureCommand capture;

    @Option(names = "--grafana", paramLabel = "URL", description = "Grafana's base URL (env GRAFANA_URL).")
    String grafanaUrl;

    @Option(names = "--grafana-token-file", paramLabel = "FILE",
            description = "A file holding a Grafana service account token (env GRAFANA_TOKEN).")
    Path tokenFile;

    @Option(names = "--dashboard", required = true, paramLabel = "UID", description = "The dashboard's UID.")
    String dashboardUid;

    @Option(names = "--from", required = true, paramLabel = "TIME", description = "The window's start, RFC 3339.")
    String from;

    @Option(names = "--to", required = true, paramLabel = "TIME", description = "The window's end, RFC 3339.")
    String to;

    @Option(names = "--panel", paramLabel = "ID",
            description = "A panel to capture (default: every panel with queries).")
    List<Integer> panels;

    @Option(names = "--max-data-points", defaultValue = "1000", paramLabel = "N")
    int maxDataPoints;

    @Mixin
    ArtifactOptions artifact;

    @Mixin
    ServiceOptions service;

    @Override
    public Integer call() throws IOException {
        Invocation invocation = capture.root.invocation;
        Window window = new Window(instant("--from", from), instant("--to", to));
        SourceApi grafana = new SourceApi("grafana", Optional.ofNullable(grafanaUrl)
                .or(() -> invocation.variable("GRAFANA_URL"))
                .orElseThrow(() -> CommandFailure.usage("no Grafana: give --grafana or set GRAFANA_URL")),
                SourceApi.token(tokenFile, invocation, "GRAFANA_TOKEN"));
        Session session = Session.open(service, invocation);
        GrafanaSnapshot snapshot = new GrafanaSnapshot(grafana, window, maxDataPoints);
        JsonNode fetched = grafana.getJson("api/dashboards/uid/" + dashboardUid);
        ObjectNode dashboard = (ObjectNode) fetched.path("dashboard");
        List<ObjectNode> chosen = snapshot.panels(dashboard, panels);
        ObjectNode known = Json.object().put("dashboard", dashboardUid).put("window", window.toString())
                .put("url", grafana.base().toString());
        ArrayNode ids = known.putArray("panels");
        chosen.forEach(panel -> ids.add(panel.path("id").asInt()));
        known.put("step", snapshot.stepMillis() / 1000 + "s");
        known.set("queries", snapshot.queries(chosen));
        HashedFile file = write(snapshot, fetched, dashboard, chosen);
        return new Captured(file, known, "grafana", ArtifactName.ofFileName("grafana-" + dashboardUid + ".json"),
                "application/json", dashboard.path("title").asText(dashboardUid) + ", " + window)
                .push(session, artifact, invocation);
    }

    /** The snapshot written as it is made, panel by panel, into the hashed temporary file. */
    private static HashedFile write(GrafanaSnapshot snapshot, JsonNode fetched, ObjectNode dashboard,
            List<ObjectNode> chosen) throws IOException {
        PipedInputStream in = new PipedInputStream(64 * 1024);
        PipedOutputStream out = new PipedOutputStream(in);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try (JsonGenerator json = Json.MAPPER.getFactory().createGenerator(out).useDefaultPrettyPrinter()) {
                snapshot.write(json, fetched, dashboard, chosen);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        HashedFile file = HashedFile.copyOf(in, "grafana dashboard " + dashboard.path("uid").asText());
        try {
            writer.join();
        } catch (CompletionException e) {
            file.close();
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
        return file;
    }

    private static Instant instant(String option, String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw CommandFailure.usage(option + " \"" + text + "\" is not an RFC 3339 time such as"
                    + " 2026-06-18T08:40:00Z");
        }
    }

    /** A time window, written as the demo writes it: {@code from/to}. */
    record Window(Instant from, Instant to) {
        Window {
            if (!to.isAfter(from)) {
                throw CommandFailure.usage("--to must be after --from");
            }
        }

        @Override
        public String toString() {
            return from + "/" + to;
        }
    }
}
