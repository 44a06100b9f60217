package dev.evidencestore.http;

import dev.evidencestore.audit.AuditEvent;
import dev.evidencestore.audit.AuditLog;
import dev.evidencestore.audit.EntryLink;
import dev.evidencestore.security.CurrentActor;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A write and its audit entry in one transaction: the resource does its work and builds its answer inside it, the
 * entry records that answer, and both commit together or not at all. A write whose entry cannot be written fails
 * (503 when the database is lost) and leaves nothing behind; no write is answered 2xx without its entry.
 *
 * <p>A write that streams bytes (an upload, a re-read of stored bytes) streams them before, outside any transaction,
 * and commits here only what it recorded of them.
 *
 * <p>Each write draws a request ID that its entry carries and that the records it makes may keep ({@link EntryLink}),
 * so that a review finds its own entry, and so its place in the log, once the entry is sequenced.
 */
@ApplicationScoped
public class AuditedWrite {

    private final AuditLog log;
    private final CurrentActor actor;
    private final UriInfo uri;
    private final HttpServerRequest request;
    private final RecordedWrite recorded;
    private final EntryLink link;

    AuditedWrite(AuditLog log, CurrentActor actor, UriInfo uri, HttpServerRequest request, RecordedWrite recorded,
                 EntryLink link) {
        this.log = log;
        this.link = link;
        this.actor = actor;
        this.uri = uri;
        this.request = request;
        this.recorded = recorded;
    }

    /** Runs {@code write} and records its answer, in a new transaction; a refusal it throws rolls both back. */
    public Response commit(Supplier<Response> write) {
        UUID requestId = UUID.randomUUID();
        link.begin(requestId);
        Response answer = QuarkusTransaction.requiringNew().call(() -> {
            Response response = write.get();
            log.record(entryOf(response, requestId));
            return response;
        });
        recorded.markRecorded();
        return answer;
    }

    /**
     * Runs {@code writes}, several writes of one request (items of a batch), and records one entry per answer, each
     * with a request ID of its own, in one new transaction: one commit for all of them. A refusal thrown rolls all
     * back; a write refused alone is one of the answers, and its entry records its refusal as a lone write's would.
     */
    public List<Response> commitEach(Supplier<List<Response>> writes) {
        List<Response> answers = QuarkusTransaction.requiringNew().call(() -> {
            List<Response> responses = writes.get();
            log.recordAll(responses.stream().map(response -> entryOf(response, UUID.randomUUID())).toList());
            return responses;
        });
        recorded.markRecorded();
        return answers;
    }

    private AuditEvent entryOf(Response response, UUID requestId) {
        return AuditedRequest.event(actor.name(), request.method().name(), uri, response.getStatus(),
                response.getLocation(), null, false).linkedTo(requestId);
    }
}
