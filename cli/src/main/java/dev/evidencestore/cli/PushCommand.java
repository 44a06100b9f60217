package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code evidence push FILE… | -}: hash locally, upload under the declared digest, bind, with safe retries. */
@Command(name = "push", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Upload files (or standard input, -) and bind each as an artifact of an incident.",
            "Each file is hashed locally first; the upload declares its digest, and every write is retried safely."})
final class PushCommand implements Callable<Integer> {

    private static final String STDIN = "-";

    @ParentCommand
    EvidenceCommand root;

    @Mixin
    ArtifactOptions artifact;

    @Option(names = "--source", required = true, paramLabel = "SOURCE",
            description = "Where the evidence comes from, a slug such as grafana, kubernetes, github.")
    String source;

    @Option(names = "--kind", defaultValue = ArtifactDraft.SNAPSHOT, paramLabel = "KIND",
            description = "snapshot (default) or source-unavailable.")
    String kind;

    @Option(names = "--parallel", defaultValue = "1", paramLabel = "N",
            description = "Upload N files at once when they do not go in one batch upload (default 1).")
    int parallel;

    @Option(names = "--no-batch",
            description = "One upload and one bind per file, even when the service offers batch uploads.")
    boolean noBatch;

    @Mixin
    ServiceOptions service;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Files to push; - reads standard input.")
    List<String> files;

    @Override
    public Integer call() throws IOException {
        validate();
        Session session = Session.open(service, root.invocation);
        String workspace = session.workspace();
        List<ArtifactBatch.Item> items = new ArrayList<>();
        try {
            for (String file : files) {
                items.add(new ArtifactBatch.Item(hashed(file), draft(file)));
            }
            Pushes pushes = new Pushes(new EvidencePush(session.client, workspace, artifact.incident), parallel,
                    !noBatch);
            return new PushReport(root.invocation, artifact.json).print(pushes.run(session.client, items));
        } finally {
            for (ArtifactBatch.Item item : items) {
                item.file().close();
            }
        }
    }

    private void validate() {
        if (parallel < 1) {
            throw CommandFailure.usage("--parallel must be at least 1");
        }
        if (files.stream().filter(STDIN::equals).count() > 1) {
            throw CommandFailure.usage("standard input (-) can be pushed once");
        }
        if (artifact.name != null && files.size() > 1) {
            throw CommandFailure.usage("--name names one artifact; push several files without it");
        }
        if (files.contains(STDIN) && artifact.name == null) {
            throw CommandFailure.usage("standard input has no file name: give the artifact's name with --name");
        }
        for (String file : files) {
            if (!file.equals(STDIN) && !Files.isRegularFile(Path.of(file))) {
                throw CommandFailure.usage("no such file: " + file);
            }
        }
    }

    private HashedFile hashed(String file) throws IOException {
        return file.equals(STDIN) ? HashedFile.copyOf(root.invocation.in(), "standard input")
                : HashedFile.of(Path.of(file));
    }

    private ArtifactDraft draft(String file) {
        String fileName = file.equals(STDIN) ? "" : Path.of(file).getFileName().toString();
        String name = artifact.name != null ? artifact.name : ArtifactName.ofFileName(fileName);
        String mediaType = artifact.mediaType != null ? artifact.mediaType
                : file.equals(STDIN) ? MediaTypes.OCTETS : MediaTypes.ofFileName(fileName);
        return new ArtifactDraft(name, mediaType, source, kind, ArtifactDraft.capturedAt(artifact.capturedAt),
                artifact.description, Provenance.capture(Json.object(), artifact, root.invocation));
    }

    /** The outcome of one artifact: what the service bound, or why it failed. */
    record Outcome(String label, JsonNode artifact, CommandFailure failure) {
    }
}
