package dev.evidencestore.http;

import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.security.RequestedWorkspace;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Where JAX-RS requests meet {@link WorkspaceAccess}, which decides who may touch which workspace. It runs after
 * routing, on the decoded path parameters, so every spelling of a path that reaches a resource gets the same
 * decision. Role checks on writes are {@code @RolesAllowed} on the resources; this gate adds public reads and
 * workspace isolation: a workspace the token does not hold answers 404, as if it did not exist.
 */
public class WorkspaceGate {

    private final CurrentIdentityAssociation identities;
    private final WorkspaceAccess access;

    WorkspaceGate(CurrentIdentityAssociation identities, WorkspaceAccess access) {
        this.identities = identities;
        this.access = access;
    }

    @ServerRequestFilter(priority = RequestPipeline.WORKSPACE_GATE)
    public Uni<Response> gate(ContainerRequestContext request, UriInfo uri) {
        // resolving the identity here makes an invalid token a 401 even where anonymous reads are allowed
        return identities.getDeferredIdentity().map(identity -> access.refusal(CurrentActor.of(identity),
                isRead(request.getMethod()), RequestedWorkspace.of(uri.getPathParameters())));
    }

    private static boolean isRead(String method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }
}
