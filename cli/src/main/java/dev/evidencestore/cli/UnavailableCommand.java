package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code evidence unavailable --source S --reason TEXT}: records that a source could not be reached, as an artifact
 * of kind {@code source-unavailable} in the demo's shape (source, reason, the attempt, the fallback), so that a gap
 * finding can cite it.
 */
@Command(name = "unavailable", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Record that a source could not be reached: a source-unavailable artifact a gap finding cites.")
final class UnavailableCommand implements Callable<Integer> {

    @ParentCommand
    EvidenceCommand root;

    @Option(names = "--source", required = true, paramLabel = "SOURCE", description = "The source, such as intercom.")
    String source;

    @Option(names = "--reason", required = true, paramLabel = "TEXT", description = "Why it could not be reached.")
    String reason;

    @Option(names = "--result", defaultValue = "unavailable", paramLabel = "RESULT",
            description = "What the attempt ended in, a short slug such as connector-not-configured.")
    String result;

    @Option(names = "--attempt", paramLabel = "KEY=VALUE",
            description = "A detail of the attempt (connector, operation, detail…); repeatable.")
    Map<String, String> attempt = new LinkedHashMap<>();

    @Option(names = "--fallback", paramLabel = "TEXT",
            description = "What was used instead, and what that cannot show.")
    String fallback;

    @Mixin
    ArtifactOptions artifact;

    @Mixin
    ServiceOptions service;

    @Override
    public Integer call() throws IOException {
        String capturedAt = ArtifactDraft.capturedAt(artifact.capturedAt);
        ObjectNode record = record(capturedAt);
        ObjectNode known = Json.object().put("result", result);
        ArtifactDraft draft = new ArtifactDraft(artifact.name != null ? artifact.name : source + "-unavailable",
                artifact.mediaType != null ? artifact.mediaType : "application/json", source,
                ArtifactDraft.SOURCE_UNAVAILABLE, capturedAt,
                artifact.description != null ? artifact.description : reason,
                Provenance.capture(known, artifact, root.invocation));
        Session session = Session.open(service, root.invocation);
        try (HashedFile file = HashedFile.copyOf(new ByteArrayInputStream(
                Json.pretty(record).concat("\n").getBytes(StandardCharsets.UTF_8)), source + " record")) {
            JsonNode bound = new EvidencePush(session.client, session.workspace(), artifact.incident).push(file, draft);
            return new PushReport(root.invocation, artifact.json)
                    .print(List.of(new PushCommand.Outcome(file.label(), bound, null)));
        }
    }

    private ObjectNode record(String checkedAt) {
        ObjectNode record = Json.object().put("source", source).put("kind", ArtifactDraft.SOURCE_UNAVAILABLE)
                .put("incident", artifact.incident).put("checkedAt", checkedAt).put("status", "unavailable")
                .put("reason", reason);
        ObjectNode attempted = record.putObject("attempt").put("collector", Version.COLLECTOR).put("result", result);
        attempt.forEach(attempted::put);
        if (fallback != null) {
            record.putObject("fallback").put("note", fallback);
        }
        return record;
    }
}
