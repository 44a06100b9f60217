package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.storage.StoreFull;

import java.sql.SQLException;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Recognises failures of what the service stands on (the database, the blob store's disk) among unexpected
 * exceptions, so that clients get a 503 or 507 telling them to retry rather than a 500 that blames the service.
 * Nothing was stored when these happen: every write commits only after the bytes and rows are all in place.
 */
final class Outage {

    static final int RETRY_AFTER_SECONDS = 5;

    /** SQLSTATE class 08 (connection exception), server shutting down or starting, too many connections. */
    private static final Set<String> DATABASE_GONE = Set.of("57P01", "57P02", "57P03", "53300");

    private Outage() {
    }

    static Optional<Refusal> recognise(Throwable failure) {
        Set<Throwable> seen = new HashSet<>();
        for (Throwable cause = failure; cause != null && seen.add(cause); cause = cause.getCause()) {
            if (cause instanceof SQLException sql && poolExhausted(sql)) {
                return Optional.of(retry(ProblemType.SERVICE_BUSY,
                        "every database connection is in use; nothing was stored"));
            }
            if (cause instanceof SQLException sql && databaseGone(sql)) {
                return Optional.of(retry(ProblemType.DATABASE_UNAVAILABLE,
                        "the database cannot be reached right now; nothing was stored"));
            }
            if (cause instanceof StoreFull) {
                return Optional.of(new Refusal(ProblemType.INSUFFICIENT_STORAGE,
                        "the blob store has no space left; nothing was stored"));
            }
        }
        return Optional.empty();
    }

    /** A write to the blob store that failed for a reason other than space, such as an I/O error of the disk. */
    static Refusal storageFailed() {
        return retry(ProblemType.STORAGE_UNAVAILABLE, "the blob store could not write the upload; nothing was stored");
    }

    private static Refusal retry(ProblemType type, String detail) {
        return new Refusal(type, detail).with("retryAfterSeconds", RETRY_AFTER_SECONDS);
    }

    private static boolean databaseGone(SQLException e) {
        String state = e.getSQLState();
        return state != null && (state.startsWith("08") || DATABASE_GONE.contains(state));
    }

    /**
     * Agroal gives no SQLSTATE when no connection could be had within the acquisition timeout. With the database
     * down, opening a connection fails at once with a connection error instead, so a timeout means saturation.
     */
    private static boolean poolExhausted(SQLException e) {
        return e.getSQLState() == null && e.getMessage() != null && e.getMessage().contains("acquisition timeout");
    }
}
