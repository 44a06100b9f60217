package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditPendingEntity;

import java.net.URI;
import java.time.Instant;
import java.util.UUID;

/**
 * What one write request did, as the audit log records it: who asked, in which workspace (null for blobs and the
 * audit itself), the method and path, what it created or touched, the status answered, for a refusal the slug of its
 * problem type, and whether the answer was a replay of an earlier one (a retry with the same Idempotency-Key, which
 * did nothing itself). {@code requestId} links the entry to the records its write made (see {@link EntryLink}); it
 * is null for a request that wrote nothing itself, and is no part of the entry's canonical JSON.
 */
public record AuditEvent(String actor, String workspace, String method, String path, String target, int status,
                         String problem, boolean replayed, UUID requestId) {

    /** A request answered for itself, not replayed. */
    public AuditEvent(String actor, String workspace, String method, String path, String target, int status,
                      String problem) {
        this(actor, workspace, method, path, target, status, problem, false, null);
    }

    /** A request that wrote nothing the log must link to. */
    public AuditEvent(String actor, String workspace, String method, String path, String target, int status,
                      String problem, boolean replayed) {
        this(actor, workspace, method, path, target, status, problem, replayed, null);
    }

    /** This event, linked to the records of the write with this request ID. */
    public AuditEvent linkedTo(UUID id) {
        return new AuditEvent(actor, workspace, method, path, target, status, problem, replayed, id);
    }

    /**
     * What a request created or touched: the path of the Location it was answered (its host is whatever the client
     * called the service, which has no place in a hash), else the ID in its path, if any.
     */
    public static String target(URI location, String pathId) {
        return location != null ? location.getPath() : pathId;
    }

    /**
     * A hostile request may carry a NUL in its path (sent as %00), which PostgreSQL text cannot hold: it is recorded
     * percent-encoded again, so that the refusal is still audited.
     */
    public AuditEvent {
        actor = storable(actor);
        path = storable(path);
        target = storable(target);
    }

    private static String storable(String text) {
        return text == null ? null : text.replace("\u0000", "%00");
    }

    /** The event a pending row holds. */
    static AuditEvent of(AuditPendingEntity row) {
        return new AuditEvent(row.actor, row.workspace, row.method, row.path, row.target, row.status, row.problem,
                row.replayed, row.requestId);
    }

    /** The pending row that holds this event, as it happened {@code at}. */
    AuditPendingEntity toPending(Instant at) {
        AuditPendingEntity row = new AuditPendingEntity();
        row.at = at;
        row.actor = actor;
        row.workspace = workspace;
        row.method = method;
        row.path = path;
        row.target = target;
        row.status = status;
        row.problem = problem;
        row.replayed = replayed;
        row.requestId = requestId;
        return row;
    }
}
