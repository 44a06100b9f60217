package dev.evidencestore.api;

import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.idempotency.Idempotent;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ArtifactBinding;
import dev.evidencestore.service.ArtifactService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The artifacts of one incident: binding names to uploaded blobs, and listing them. */
@Path("/api/v1/workspaces/{workspace}/incidents/{key}/artifacts")
@Produces(MediaType.APPLICATION_JSON)
public class IncidentArtifactResource {

    private final ArtifactService artifacts;

    IncidentArtifactResource(ArtifactService artifacts) {
        this.artifacts = artifacts;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.COLLECTOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response bind(@PathParam("workspace") String workspace, @PathParam("key") String key,
                         ArtifactRequest body) {
        Workspace ws = Workspace.parse(workspace);
        IncidentKey incident = IncidentKey.parse(key);
        ArtifactBinding binding = artifacts.bind(ws, incident, Bodies.required(body).toDraft());
        Response.ResponseBuilder response = binding.created() ? Response.status(Response.Status.CREATED)
                : Response.ok();
        return response.location(Links.artifact(binding.artifact().id()))
                .entity(ArtifactResponse.of(binding.artifact())).build();
    }

    @GET
    @PermitAll
    public ArtifactListResponse list(@PathParam("workspace") String workspace, @PathParam("key") String key) {
        return new ArtifactListResponse(artifacts.list(Workspace.parse(workspace), IncidentKey.parse(key)).stream()
                .map(ArtifactResponse::of).toList());
    }
}
