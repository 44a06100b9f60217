package dev.evidencestore.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "grafana", description = "Not yet.")
final class GrafanaCapture implements Callable<Integer> {

    @Override
    public Integer call() {
        return ExitCodes.USAGE;
    }
}
