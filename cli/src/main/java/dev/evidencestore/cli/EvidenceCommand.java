package dev.evidencestore.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;

/** {@code evidence}: the command line of Evidence Store. */
@Command(name = "evidence", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Capture evidence with its provenance, push it safely, check postmortems, and witness the log.",
        subcommands = {PushCommand.class, CaptureCommand.class, UnavailableCommand.class, VerifyCommand.class,
            CheckCommand.class, BundleCommand.class, LogCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:ok",
            "1:a check found a problem (citations, bundle, verification)",
            "2:usage",
            "3:refused by the service (4xx), with the problem's detail",
            "4:service unavailable after retries",
            "5:the log is inconsistent, or a key does not match the pinned one"})
public final class EvidenceCommand implements Callable<Integer> {

    final Invocation invocation;

    EvidenceCommand(Invocation invocation) {
        this.invocation = invocation;
    }

    public static void main(String[] arguments) {
        System.exit(run(Invocation.ofProcess(), arguments));
    }

    static int run(Invocation invocation, String... arguments) {
        CommandLine line = new CommandLine(new EvidenceCommand(invocation));
        line.setOut(new PrintWriter(invocation.out(), true));
        line.setErr(new PrintWriter(invocation.err(), true));
        line.setExecutionExceptionHandler((failure, command, parsed) -> {
            if (failure instanceof CommandFailure known) {
                invocation.err().println("evidence: " + known.getMessage().stripTrailing());
                return known.exitCode();
            }
            if (failure instanceof UncheckedIOException io) {
                invocation.err().println("evidence: " + io.getCause().getMessage());
                return ExitCodes.USAGE;
            }
            throw failure;
        });
        return line.execute(arguments);
    }

    @Override
    public Integer call() {
        return usage(this, invocation);
    }

    /** A command run without the subcommand it needs: its usage on standard error, and the usage exit status. */
    static int usage(Object command, Invocation invocation) {
        new CommandLine(command).usage(invocation.err());
        return ExitCodes.USAGE;
    }
}
