package dev.evidencestore.cli;

/** The log the service shows now cannot be the log it showed before, or is not signed by the pinned key. */
final class LogInconsistency extends CommandFailure {

    private static final long serialVersionUID = 1L;

    LogInconsistency(String message) {
        super(ExitCodes.INCONSISTENT, message);
    }
}
