package dev.evidencestore.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/** A command run for its standard output, which is copied to a file while it is hashed; stderr goes to ours. */
record CommandRun(HashedFile output, int exitCode) {

    static CommandRun of(List<String> command) throws IOException {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                    .redirectInput(ProcessBuilder.Redirect.INHERIT).start();
        } catch (IOException e) {
            throw CommandFailure.usage("cannot run " + command.get(0) + ": " + e.getMessage());
        }
        HashedFile output;
        try (InputStream stdout = process.getInputStream()) {
            output = HashedFile.copyOf(stdout, Provenance.commandLine(command));
        }
        try {
            return new CommandRun(output, process.waitFor());
        } catch (InterruptedException e) {
            process.destroy();
            output.close();
            Thread.currentThread().interrupt();
            throw new CommandFailure(ExitCodes.USAGE, "interrupted while " + command.get(0) + " ran");
        }
    }
}
