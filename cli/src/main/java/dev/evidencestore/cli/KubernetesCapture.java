package dev.evidencestore.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "kubernetes", description = "Not yet.")
final class KubernetesCapture implements Callable<Integer> {

    @Override
    public Integer call() {
        return ExitCodes.USAGE;
    }
}
