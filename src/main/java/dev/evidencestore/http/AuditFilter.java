package dev.evidencestore.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.audit.AuditEvent;
import dev.evidencestore.audit.RefusalEntries;
import dev.evidencestore.domain.DisplayName;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.security.CurrentActor;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

/**
 * Appends an audit entry for every request that may write: every method but GET and HEAD that reached a resource
 * method, or matched one and was refused for its media types (415, 406) or its method (405), whatever it was
 * answered. Refusals by the
 * service (a 409 on an artifact) and by the security checks (401, 403, and 404 for a workspace the token does not
 * hold) are recorded like successes, and a retry answered from its Idempotency-Key as a replay, which did nothing
 * itself. A write that committed wrote its entry in its own transaction ({@link AuditedWrite}), so no write is
 * acknowledged without it. Every other request changed nothing, and its entry is queued here
 * ({@link RefusalEntries}): written in batches, it needs no database connection of its own, and its answer waits for
 * it at most {@code evidence.audit.refusal-wait}, so a client that got its answer finds the entry in what it reads
 * next, and a pool with no connection to give delays refusals but loses none of them.
 *
 * <p>Unauthenticated writes beyond their address's rate, refused before routing ({@link UnauthenticatedWrites}), are
 * counted in one aggregate entry per address and window instead of an entry each, and so are refusals that find the
 * queue full.
 */
public class AuditFilter {

    private static final Logger LOG = Logger.getLogger(AuditFilter.class);
    private static final MediaType PROBLEM = MediaType.valueOf(Problems.MEDIA_TYPE);

    private final RefusalEntries refusals;
    private final UnauthenticatedWrites writes;
    private final CurrentIdentityAssociation identities;
    private final ObjectMapper mapper;
    private final RecordedWrite recorded;
    private final ClientAddress clients;
    private final Duration refusalWait;

    AuditFilter(RefusalEntries refusals, UnauthenticatedWrites writes, CurrentIdentityAssociation identities,
                ObjectMapper mapper, RecordedWrite recorded, ClientAddress clients, EvidenceConfig config) {
        this.refusals = refusals;
        this.clients = clients;
        this.writes = writes;
        this.identities = identities;
        this.mapper = mapper;
        this.recorded = recorded;
        this.refusalWait = config.audit().refusalWait();
    }

    @ServerResponseFilter(priority = RequestPipeline.AUDIT)
    public Uni<Void> record(ContainerRequestContext request, ContainerResponseContext response,
                            SimpleResourceInfo resource, HttpServerRequest http) {
        String client = clients.of(http);
        String operation = Operations.of(request.getMethod(), request.getUriInfo().getPath());
        if (request.getProperty(UnauthenticatedWrites.LIMITED) != null) {
            // refused before routing, beyond the rate: one count in the address's aggregate
            refusals.aggregate(client, DisplayName.ANONYMOUS, response.getStatus(),
                    ProblemType.TOO_MANY_REQUESTS.slug(), operation);
            return Uni.createFrom().voidItem();
        }
        if (isRead(request.getMethod())
                || !(reachedResource(resource) || refusedForMediaType(response) || refusedForMethod(response))) {
            return Uni.createFrom().voidItem();
        }
        if (recorded.recorded()) {
            // the entry committed with the write
            return Uni.createFrom().voidItem();
        }
        // resolving the identity without blocking: a token that failed authentication is an anonymous caller
        return identities.getDeferredIdentity()
                .onItemOrFailure().transform((identity, failure) -> failure == null ? CurrentActor.nameOf(identity)
                        : DisplayName.ANONYMOUS)
                .map(name -> event(name, request, response))
                .chain(event -> limitedOrQueued(event, request, response, client, operation))
                .onFailure().recoverWithItem(e -> {
                    LOG.errorf(e, "AUDIT ENTRY LOST: %s %s answered %d and could not be described",
                            request.getMethod(), request.getUriInfo().getPath(), response.getStatus());
                    return null;
                });
    }

    /**
     * A write whose token failed verification counts against its address's rate like one without a token; beyond
     * it, it is answered 429 and counted in the aggregate. Any other refusal is queued.
     */
    private Uni<Void> limitedOrQueued(AuditEvent event, ContainerRequestContext request,
                                      ContainerResponseContext response, String client, String operation) {
        if (DisplayName.ANONYMOUS.equals(event.actor()) && request.getHeaderString(HttpHeaders.AUTHORIZATION) != null
                && writes.limitRefused(response, client)) {
            refusals.aggregate(client, DisplayName.ANONYMOUS, response.getStatus(),
                    ProblemType.TOO_MANY_REQUESTS.slug(), operation);
            return Uni.createFrom().voidItem();
        }
        return queue(event, client, operation);
    }

    /**
     * Queues the refusal's entry, and lets the answer wait for it a little: long enough when the database is
     * well, never longer than {@code evidence.audit.refusal-wait}, after which the entry still waits in the queue.
     */
    private Uni<Void> queue(AuditEvent event, String client, String operation) {
        return Uni.createFrom().completionStage(refusals.record(event, client, operation))
                .ifNoItem().after(refusalWait).recoverWithItem(() -> null)
                // the answer goes on on a worker, as a blocking write of the entry did: never on the queue's thread
                .emitOn(Infrastructure.getDefaultWorkerPool())
                .replaceWithVoid();
    }

    private AuditEvent event(String actor, ContainerRequestContext request, ContainerResponseContext response) {
        return AuditedRequest.event(actor, request.getMethod(), request.getUriInfo(), response.getStatus(),
                response.getLocation(), problemOf(response), isReplay(response));
    }

    private static boolean reachedResource(SimpleResourceInfo resource) {
        return resource != null && resource.getMethodName() != null;
    }

    /**
     * A write the router matched to an operation and refused before choosing its resource method, because the
     * operation does not take its Content-Type (415) or cannot answer in its Accept (406): still a write asked for.
     */
    private static boolean refusedForMediaType(ContainerResponseContext response) {
        return response.getStatus() == ProblemType.UNSUPPORTED_MEDIA_TYPE.status()
                || response.getStatus() == ProblemType.NOT_ACCEPTABLE.status();
    }

    /**
     * A write with a method the path has no operation for (405), such as a DELETE or PUT on evidence, which is
     * write-once: an attempt to change it is recorded like any refused write. An unknown path is a 404, and not.
     */
    private static boolean refusedForMethod(ContainerResponseContext response) {
        return response.getStatus() == ProblemType.METHOD_NOT_ALLOWED.status();
    }

    /** A retry answered with the stored answer to an earlier request with its Idempotency-Key; it did nothing. */
    private static boolean isReplay(ContainerResponseContext response) {
        return IdempotencyFilter.REPLAYED_TRUE.equals(response.getHeaderString(IdempotencyFilter.REPLAYED));
    }

    private static boolean isRead(String method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }

    /**
     * The slug of a problem document's type, such as {@code artifact-name-taken}; a replayed problem is the bytes
     * that were sent the first time.
     */
    private String problemOf(ContainerResponseContext response) {
        if (response.getMediaType() == null || !PROBLEM.isCompatible(response.getMediaType())) {
            return null;
        }
        Object type = response.getEntity() instanceof Map<?, ?> problem ? problem.get("type")
                : response.getEntity() instanceof byte[] bytes ? typeOf(bytes) : null;
        return type instanceof String uri && uri.startsWith(ProblemType.BASE_URI)
                ? uri.substring(ProblemType.BASE_URI.length()) : null;
    }

    private String typeOf(byte[] problem) {
        try {
            return mapper.readTree(problem).path("type").textValue();
        } catch (IOException e) {
            return null;
        }
    }
}
