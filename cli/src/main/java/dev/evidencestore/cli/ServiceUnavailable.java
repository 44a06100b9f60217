package dev.evidencestore.cli;

/** Every attempt timed out, lost its connection or was answered 5xx. */
final class ServiceUnavailable extends CommandFailure {

    private static final long serialVersionUID = 1L;

    ServiceUnavailable(String message) {
        super(ExitCodes.UNAVAILABLE, message);
    }
}
