package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.storage.StoreFull;
import io.vertx.core.http.HttpClosedException;
import jakarta.transaction.HeuristicMixedException;
import jakarta.transaction.HeuristicRollbackException;
import jakarta.transaction.RollbackException;
import org.hibernate.exception.JDBCConnectionException;

import javax.transaction.xa.XAException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Recognises failures of what the service stands on (the database, the blob store's disk) among unexpected
 * exceptions, so that clients get a 503 or 507 telling them to retry rather than a 500 that blames the service.
 *
 * <p>A lost database connection arrives wrapped by whichever layer met it: Hibernate ({@link
 * JDBCConnectionException}), Agroal (its own {@link SQLException}s, or the driver's), Narayana at commit (a {@link
 * RollbackException} or {@link HeuristicMixedException} that holds the resource's {@link XAException} as a
 * <em>suppressed</em> exception, the driver's exception as that one's cause), Arc ({@code
 * ArcUndeclaredThrowableException} around a checked exception of an interceptor), Vert.x and Mutiny. So the whole tree
 * is searched, causes and suppressed exceptions alike, and each failure is recognised by its type and SQLSTATE, not by
 * its message.
 */
final class Outage {

    static final int RETRY_AFTER_SECONDS = 5;

    /** Beside SQLSTATE class 08 (connection exception): server shutting down or starting, too many connections. */
    private static final Set<String> DATABASE_GONE = Set.of("57P01", "57P02", "57P03", "53300");
    /** Agroal's pool reports its own verdicts (no connection in time, none free) as SQLExceptions without SQLSTATE. */
    private static final String POOL = "io.agroal.pool.";

    private Outage() {
    }

    static Optional<Refusal> recognise(Throwable failure) {
        List<Throwable> tree = tree(failure);
        // a write whose connection was lost as it committed may have been stored: the detail must not promise otherwise
        boolean atCommit = tree.stream().anyMatch(Outage::isCommitFailure);
        for (Throwable cause : tree) {
            if (cause instanceof StoreFull) {
                return Optional.of(new Refusal(ProblemType.INSUFFICIENT_STORAGE,
                        "the blob store has no space left; nothing was stored"));
            }
            if (poolSaturated(cause)) {
                return Optional.of(retry(ProblemType.SERVICE_BUSY,
                        "every database connection is in use; nothing was stored"));
            }
            if (connectionLost(cause)) {
                return Optional.of(databaseUnavailable(atCommit));
            }
        }
        return tree.stream().anyMatch(Outage::unexplainedCommitFailure) ? Optional.of(databaseUnavailable(true))
                : Optional.empty();
    }

    /** A write to the blob store that failed for a reason other than space, such as an I/O error of the disk. */
    static Refusal storageFailed() {
        return retry(ProblemType.STORAGE_UNAVAILABLE, "the blob store could not write the upload; nothing was stored");
    }

    private static Refusal databaseUnavailable(boolean atCommit) {
        return retry(ProblemType.DATABASE_UNAVAILABLE, atCommit
                ? "the connection to the database was lost as the write committed, so it may or may not be stored"
                : "the database cannot be reached right now; nothing was stored");
    }

    private static Refusal retry(ProblemType type, String detail) {
        return new Refusal(type, detail).with("retryAfterSeconds", RETRY_AFTER_SECONDS);
    }

    /** Whether the client's connection closed under the request (Vert.x's HttpClosedException, at any depth). */
    static boolean connectionClosed(Throwable failure) {
        return tree(failure).stream().anyMatch(HttpClosedException.class::isInstance);
    }

    /** {@code failure}, then its causes and suppressed exceptions, depth first, each once (cycles happen). */
    static List<Throwable> tree(Throwable failure) {
        List<Throwable> tree = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Throwable> todo = new ArrayList<>(List.of(failure));
        while (!todo.isEmpty()) {
            Throwable next = todo.remove(todo.size() - 1);
            if (next == null || !seen.add(next)) {
                continue;
            }
            tree.add(next);
            // pushed in reverse, so that the cause comes before the suppressed ones, and those in their order
            List<Throwable> below = new ArrayList<>(List.of(next.getSuppressed()));
            Collections.reverse(below);
            todo.addAll(below);
            todo.add(next.getCause());
        }
        return tree;
    }

    /**
     * The connection was lost or refused: by SQLSTATE; by Hibernate's type for it; by the XA error code for a
     * resource manager that is gone; or by the pool, which could not open a new connection in time (its exception
     * then holds the cause, such as a {@link java.util.concurrent.TimeoutException}).
     */
    private static boolean connectionLost(Throwable failure) {
        if (failure instanceof SQLException sql) {
            String state = sql.getSQLState();
            return state == null ? fromPool(sql) && sql.getCause() != null
                    : state.startsWith("08") || DATABASE_GONE.contains(state);
        }
        return failure instanceof JDBCConnectionException
                || failure instanceof XAException xa && xa.errorCode == XAException.XAER_RMFAIL;
    }

    /**
     * Every connection of the pool stayed in use for the acquisition timeout: the pool's own exception, with no
     * cause. With the database down, opening a connection fails at once with a connection error instead.
     */
    private static boolean poolSaturated(Throwable failure) {
        return failure instanceof SQLException sql && sql.getSQLState() == null && sql.getCause() == null
                && fromPool(sql);
    }

    private static boolean fromPool(SQLException e) {
        StackTraceElement[] frames = e.getStackTrace();
        return frames.length > 0 && frames[0].getClassName().startsWith(POOL);
    }

    private static boolean isCommitFailure(Throwable failure) {
        return failure instanceof RollbackException || failure instanceof HeuristicMixedException
                || failure instanceof HeuristicRollbackException;
    }

    /**
     * A commit that failed with nothing below it but the resource's XA errors, or nothing at all: Narayana lost the
     * one resource it had, the database connection, and the driver's exception that said why stayed in the log. A
     * commit that failed because of an exception of the service, or a constraint of the database, is not an outage.
     */
    private static boolean unexplainedCommitFailure(Throwable failure) {
        return isCommitFailure(failure)
                && tree(failure).stream().skip(1).allMatch(below -> below instanceof XAException);
    }
}
