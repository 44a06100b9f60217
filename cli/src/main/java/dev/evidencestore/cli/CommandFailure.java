package dev.evidencestore.cli;

/** A failure that ends a command with its exit status and one message for the person at the terminal. */
class CommandFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CommandFailure(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CommandFailure(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }

    static CommandFailure usage(String message) {
        return new CommandFailure(ExitCodes.USAGE, message);
    }
}
