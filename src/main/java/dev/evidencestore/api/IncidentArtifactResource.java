package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactDraft;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
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
@Path(Routes.INCIDENT_ARTIFACTS)
@Produces(MediaType.APPLICATION_JSON)
public class IncidentArtifactResource {

    private final ArtifactService artifacts;
    private final AuditedWrite writes;

    IncidentArtifactResource(ArtifactService artifacts, AuditedWrite writes) {
        this.writes = writes;
        this.artifacts = artifacts;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.COLLECTOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response bind(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                         ArtifactRequest body) {
        ArtifactDraft draft = Bodies.required(body).toDraft();
        return writes.commit(() -> {
            ArtifactBinding binding = artifacts.bind(workspace, key, draft);
            Response.ResponseBuilder response = binding.created() ? Response.status(Response.Status.CREATED)
                    : Response.ok();
            return response.location(Routes.artifact(binding.artifact().id()))
                    .entity(ArtifactResponse.of(binding.artifact())).build();
        });
    }

    @GET
    @PermitAll
    public ArtifactListResponse list(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        return new ArtifactListResponse(artifacts.list(workspace, key).stream()
                .map(ArtifactResponse::of).toList());
    }
}
