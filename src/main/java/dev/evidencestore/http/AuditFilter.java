package dev.evidencestore.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.audit.AuditEvent;
import dev.evidencestore.audit.AuditLog;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.security.RequestedWorkspace;
import io.quarkus.runtime.BlockingOperationControl;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.PathSegment;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Appends an audit entry for every request that may write: every method but GET and HEAD that reached a resource
 * method, or matched one and was refused for its media types (415, 406), whatever it was answered. Refusals by the
 * service (a 409 on an artifact) and by the security checks (401, 403, and 404 for a workspace the token does not
 * hold) are recorded like successes, and a retry answered from its Idempotency-Key as a replay, which did nothing
 * itself. The entry is written before the answer leaves, so a client that got its answer finds the entry; failing
 * to write it is logged, never turned into an error for a write that succeeded.
 */
public class AuditFilter {

    private static final Logger LOG = Logger.getLogger(AuditFilter.class);
    private static final String ANONYMOUS = "anonymous";
    private static final MediaType PROBLEM = MediaType.valueOf(Problems.MEDIA_TYPE);
    /** The collections whose records are addressed by a readable ID in the path. */
    private static final Set<String> ID_COLLECTIONS = Set.of("artifacts", "findings", "actions");

    private final AuditLog log;
    private final CurrentIdentityAssociation identities;
    private final ObjectMapper mapper;

    AuditFilter(AuditLog log, CurrentIdentityAssociation identities, ObjectMapper mapper) {
        this.log = log;
        this.identities = identities;
        this.mapper = mapper;
    }

    @ServerResponseFilter(priority = RequestPipeline.AUDIT)
    public Uni<Void> record(ContainerRequestContext request, ContainerResponseContext response,
                            SimpleResourceInfo resource) {
        if (isRead(request.getMethod()) || !(reachedResource(resource) || refusedForMediaType(response))) {
            return Uni.createFrom().voidItem();
        }
        // resolving the identity without blocking: a token that failed authentication is an anonymous caller
        return identities.getDeferredIdentity()
                .onItemOrFailure().transform((identity, failure) -> failure == null ? CurrentActor.nameOf(identity)
                        : ANONYMOUS)
                .map(name -> event(name, request, response))
                .chain(this::append)
                .onFailure().recoverWithItem(e -> {
                    LOG.errorf(e, "AUDIT ENTRY LOST: %s %s answered %d and could not be described",
                            request.getMethod(), request.getUriInfo().getPath(), response.getStatus());
                    return null;
                });
    }

    private Uni<Void> append(AuditEvent event) {
        if (BlockingOperationControl.isBlockingAllowed()) {
            appendOrLog(event);
            return Uni.createFrom().voidItem();
        }
        // refusals by the security checks (401, 403) are answered on the event loop, which must not wait for JDBC:
        // the append moves to a worker, and the answer waits for it
        return Uni.createFrom().<Void>item(() -> {
            appendOrLog(event);
            return null;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private void appendOrLog(AuditEvent event) {
        try {
            log.append(event);
        } catch (RuntimeException e) {
            LOG.errorf(e, "AUDIT ENTRY LOST: could not append %s", event);
        }
    }

    private AuditEvent event(String actor, ContainerRequestContext request, ContainerResponseContext response) {
        MultivaluedMap<String, String> parameters = parametersOf(request.getUriInfo());
        return new AuditEvent(actor, workspaceOf(parameters), request.getMethod(),
                request.getUriInfo().getRequestUri().getPath(), AuditEvent.target(response.getLocation(), parameters.getFirst("id")), response.getStatus(),
                problemOf(response), isReplay(response));
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
     * The path parameters. A request refused for its media types had none extracted, so the two the audit records
     * are read from the path, in the two shapes of the contract: {@code /api/v1/workspaces/{workspace}/…} and
     * {@code /api/v1/{artifacts|findings|actions}/{id}/…}.
     */
    private static MultivaluedMap<String, String> parametersOf(UriInfo uri) {
        MultivaluedMap<String, String> parameters = uri.getPathParameters();
        if (!parameters.isEmpty()) {
            return parameters;
        }
        List<String> segments = uri.getPathSegments().stream().map(PathSegment::getPath)
                .filter(segment -> !segment.isEmpty()).toList();
        MultivaluedMap<String, String> read = new MultivaluedHashMap<>();
        if (segments.size() >= 4 && segments.get(0).equals("api") && segments.get(1).equals("v1")) {
            String collection = segments.get(2);
            if (collection.equals("workspaces")) {
                read.putSingle("workspace", segments.get(3));
            } else if (ID_COLLECTIONS.contains(collection)) {
                read.putSingle("id", segments.get(3));
            }
        }
        return read;
    }

    /** A retry answered with the stored answer to an earlier request with its Idempotency-Key; it did nothing. */
    private static boolean isReplay(ContainerResponseContext response) {
        return IdempotencyFilter.REPLAYED_TRUE.equals(response.getHeaderString(IdempotencyFilter.REPLAYED));
    }

    private static boolean isRead(String method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }

    /** The workspace in the path, or in the ID in the path; null when there is none or it is malformed. */
    private static String workspaceOf(MultivaluedMap<String, String> parameters) {
        String workspace = RequestedWorkspace.of(parameters);
        try {
            return workspace == null ? null : Workspace.parse(workspace).slug();
        } catch (Refusal malformed) {
            return null;
        }
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
