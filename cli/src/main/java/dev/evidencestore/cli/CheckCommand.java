package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code evidence check FILE.md…}: the citation check of any postmortem text, for a docs repository's CI. Exit 0 only
 * when every citation of every file is {@code ok}.
 */
@Command(name = "check", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check every artifact and finding cited in postmortem texts (Markdown or plain text).",
            "Exit 0 only when every citation is ok: verified, known, with the digest the text gives."})
final class CheckCommand implements Callable<Integer> {

    @ParentCommand
    EvidenceCommand root;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "Postmortem texts, at most 1 MiB each.")
    List<Path> files;

    @Option(names = "--json", description = "Print the service's verdict for each file, one JSON object a line.")
    boolean json;

    @Mixin
    ServiceOptions service;

    @Override
    public Integer call() {
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw CommandFailure.usage("no such file: " + file);
            }
        }
        Session session = Session.open(service, root.invocation);
        CitationTable table = new CitationTable(root.invocation.out(), files.size() > 1);
        boolean allOk = true;
        for (Path file : files) {
            JsonNode verdict = Json.read(session.client.send(Call.post("api/v1/citations/check")
                    .body(contentType(file), () -> ofFile(file))).body());
            allOk &= verdict.path("ok").asBoolean(false);
            if (json) {
                root.invocation.out().println(Json.write(Json.object().put("file", file.toString())
                        .set("verdict", verdict)));
            } else {
                table.print(file, verdict);
            }
        }
        return allOk ? ExitCodes.OK : ExitCodes.PROBLEM_FOUND;
    }

    private static String contentType(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".md") || name.endsWith(".markdown") ? "text/markdown; charset=utf-8"
                : "text/plain; charset=utf-8";
    }

    private static HttpRequest.BodyPublisher ofFile(Path file) {
        try {
            return HttpRequest.BodyPublishers.ofFile(file);
        } catch (FileNotFoundException e) {
            throw new UncheckedIOException(e);
        }
    }
}
