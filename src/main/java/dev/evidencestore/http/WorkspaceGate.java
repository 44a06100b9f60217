package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.security.RequestedWorkspace;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.Set;

/**
 * The one place that decides who may touch which workspace. It runs after routing, on the decoded path
 * parameters, so every spelling of a path that reaches a resource gets the same decision. Role checks on writes
 * are {@code @RolesAllowed} on the resources; this gate adds public reads and workspace isolation: a workspace
 * the token does not hold answers 404, as if it did not exist.
 */
public class WorkspaceGate {

    private final CurrentIdentityAssociation identities;
    private final Set<String> publicWorkspaces;

    WorkspaceGate(CurrentIdentityAssociation identities, EvidenceConfig config) {
        this.identities = identities;
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
    }

    @ServerRequestFilter(priority = RequestPipeline.WORKSPACE_GATE)
    public Uni<Response> gate(ContainerRequestContext request, UriInfo uri) {
        // resolving the identity here makes an invalid token a 401 even where anonymous reads are allowed
        return identities.getDeferredIdentity().map(identity -> decide(CurrentActor.of(identity),
                isRead(request.getMethod()), RequestedWorkspace.of(uri.getPathParameters())));
    }

    private Response decide(Actor actor, boolean read, String workspace) {
        if (read && workspace != null && publicWorkspaces.contains(workspace)) {
            return null;
        }
        if (actor.anonymous()) {
            // blobs have no workspace in their path; BlobService decides for them
            return read && workspace == null ? null : Problems.unauthorized("this request needs a valid bearer token");
        }
        if (read && !actor.mayRead()) {
            return Problems.response(ProblemType.FORBIDDEN, "the token grants no role of this service");
        }
        if (workspace != null && !holds(actor, workspace)) {
            return Problems.response(ProblemType.NOT_FOUND, "no such resource");
        }
        return null;
    }

    private static boolean holds(Actor actor, String workspace) {
        try {
            return actor.holds(Workspace.parse(workspace));
        } catch (RuntimeException malformed) {
            // the resource itself refuses a malformed slug with 400
            return true;
        }
    }

    private static boolean isRead(String method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }
}
