package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code evidence capture exec -- CMD …}: a command's output as evidence, its line and exit code as provenance. */
@Command(name = "exec", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run a command and push its standard output; the command line and exit code are its provenance.")
final class ExecCapture implements Callable<Integer> {

    @ParentCommand
    CaptureCommand capture;

    @Option(names = "--source", paramLabel = "SOURCE", description = "The source (default: the command's name).")
    String source;

    @Mixin
    ArtifactOptions artifact;

    @Mixin
    ServiceOptions service;

    @Parameters(paramLabel = "CMD", arity = "1..*", description = "The command and its arguments, after --.")
    List<String> command;

    @Override
    public Integer call() throws IOException {
        Invocation invocation = capture.root.invocation;
        Session session = Session.open(service, invocation);
        CommandRun run = CommandRun.of(command);
        if (run.exitCode() != 0) {
            invocation.err().println("evidence: " + command.get(0) + " exited with " + run.exitCode()
                    + "; its output is pushed with that exit code as provenance");
        }
        ObjectNode known = Json.object().put("command", Provenance.commandLine(command))
                .put("exitCode", run.exitCode());
        String program = sourceSlug(Path.of(command.get(0)).getFileName().toString());
        return new Captured(run.output(), known, source != null ? source : program, program + "-output",
                "text/plain", null).push(session, artifact, invocation);
    }

    private static String sourceSlug(String program) {
        String slug = program.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^[^a-z]+", "")
                .replaceAll("-+$", "");
        slug = slug.length() > 32 ? slug.substring(0, 32).replaceAll("-+$", "") : slug;
        return slug.isEmpty() ? "exec" : slug;
    }
}
