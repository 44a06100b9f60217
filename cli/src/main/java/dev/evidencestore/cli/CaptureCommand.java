package dev.evidencestore.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code evidence capture kubernetes|grafana|github|exec}: fetch evidence from its source and push it with provenance. */
@Command(name = "capture", description = "Fetch evidence from its source and push it with full provenance.",
        subcommands = {ExecCapture.class, KubernetesCapture.class, GrafanaCapture.class, GithubCapture.class})
final class CaptureCommand implements Callable<Integer> {

    @ParentCommand
    EvidenceCommand root;

    @Override
    public Integer call() {
        new CommandLine(this).usage(root.invocation.err());
        return ExitCodes.USAGE;
    }
}
