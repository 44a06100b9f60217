package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditPendingEntity;

import java.net.URI;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What one write request did, as the audit log records it: who asked, in which workspace (null for blobs and the
 * audit itself), the method and path, what it created or touched, the status answered, for a refusal the slug of its
 * problem type, and whether the answer was a replay of an earlier one (a retry with the same Idempotency-Key, which
 * did nothing itself). {@code requestId} links the entry to the records its write made (see {@link EntryLink}); it
 * is null for a request that wrote nothing itself, and is no part of the entry's canonical JSON.
 *
 * <p>Every value the client chose is kept to {@link Truncation#MAX_BYTES} bytes; {@code truncated} names each value
 * that was cut, with the length and digest of the whole. An {@code aggregate} event records many refused requests of
 * one client at once ({@link #aggregated}).
 */
public record AuditEvent(String actor, String workspace, String method, String path, String target, int status,
                         String problem, boolean replayed, UUID requestId, Map<String, Truncation> truncated,
                         Aggregate aggregate) {

    /** What an aggregate event has for its method and path: it stands for requests of many. */
    public static final String MANY = "*";

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

    /** A request of its own, linked to the records of its write by {@code requestId}. */
    public AuditEvent(String actor, String workspace, String method, String path, String target, int status,
                      String problem, boolean replayed, UUID requestId) {
        this(actor, workspace, method, path, target, status, problem, replayed, requestId, Map.of(), null);
    }

    /**
     * The refused requests of one client that were answered {@code status} with {@code problem}, as one event. Its
     * method and path are {@link #MANY}; the aggregate lists the operations.
     */
    public static AuditEvent aggregated(String actor, int status, String problem, Aggregate aggregate) {
        return new AuditEvent(actor, null, MANY, MANY, null, status, problem, false, null, Map.of(), aggregate);
    }

    /** This event, linked to the records of the write with this request ID. */
    public AuditEvent linkedTo(UUID id) {
        return new AuditEvent(actor, workspace, method, path, target, status, problem, replayed, id, truncated,
                aggregate);
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
     * percent-encoded again, so that the refusal is still audited. Then every value the client chose is cut to the
     * bound, recording what was cut; a value cut before (read back from its row) is within it and stays as it is.
     */
    public AuditEvent {
        Map<String, Truncation> cuts = new TreeMap<>(truncated == null ? Map.of() : truncated);
        actor = bounded("actor", storable(actor), cuts);
        method = bounded("method", storable(method), cuts);
        path = bounded("path", storable(path), cuts);
        target = bounded("target", storable(target), cuts);
        if (aggregate != null && Truncation.needed(aggregate.client())) {
            cuts.put("client", Truncation.of(aggregate.client()));
            aggregate = aggregate.withClient(Truncation.cut(aggregate.client(), Truncation.MAX_BYTES));
        }
        truncated = Collections.unmodifiableMap(cuts);
    }

    private static String storable(String text) {
        return text == null ? null : text.replace("\u0000", "%00");
    }

    private static String bounded(String field, String value, Map<String, Truncation> cuts) {
        if (!Truncation.needed(value)) {
            return value;
        }
        cuts.put(field, Truncation.of(value));
        return Truncation.cut(value, Truncation.MAX_BYTES);
    }

    /** The event a pending row holds. */
    static AuditEvent of(AuditPendingEntity row) {
        return new AuditEvent(row.actor, row.workspace, row.method, row.path, row.target, row.status, row.problem,
                row.replayed, row.requestId, ExtraMembers.truncatedOf(row.truncated),
                ExtraMembers.aggregateOf(row.aggregate));
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
        row.truncated = ExtraMembers.truncatedText(truncated);
        row.aggregate = ExtraMembers.aggregateText(aggregate);
        return row;
    }
}
