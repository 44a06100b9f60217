package dev.evidencestore.cli;

import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

@Command(name = "github", description = "Not yet.")
final class GithubCapture implements Callable<Integer> {

    @Override
    public Integer call() {
        return ExitCodes.USAGE;
    }
}
