package dev.evidencestore.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code evidence capture kubernetes|grafana|github|exec}: fetch evidence from its source, push it with provenance. */
@Command(name = "capture", mixinStandardHelpOptions = true,
        description = "Fetch evidence from its source and push it with full provenance.",
        subcommands = {ExecCapture.class, KubernetesCapture.class, GrafanaCapture.class, GithubCapture.class})
final class CaptureCommand implements Callable<Integer> {

    @ParentCommand
    EvidenceCommand root;

    @Override
    public Integer call() {
        return EvidenceCommand.usage(this, root.invocation);
    }
}
