package dev.evidencestore.api;

import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.idempotency.Idempotent;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.RootCauseBinding;
import dev.evidencestore.service.RootCauseService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The root cause of one incident, with the whole chain of evidence beneath it, and its reviews. */
@Path("/api/v1/workspaces/{workspace}/incidents/{key}/root-cause")
@Produces(MediaType.APPLICATION_JSON)
public class RootCauseResource {

    private final RootCauseService rootCauses;

    RootCauseResource(RootCauseService rootCauses) {
        this.rootCauses = rootCauses;
    }

    @PUT
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response put(@PathParam("workspace") String workspace, @PathParam("key") String key,
                        RootCauseRequest body) {
        Workspace ws = Workspace.parse(workspace);
        IncidentKey incident = IncidentKey.parse(key);
        RootCauseBinding binding = rootCauses.put(ws, incident, Bodies.required(body).toDraft());
        Response.ResponseBuilder response = binding.created() ? Response.status(Response.Status.CREATED)
                : Response.ok();
        return response.location(Links.rootCause(ws, incident))
                .entity(RootCauseResponse.of(binding.rootCause())).build();
    }

    @GET
    @PermitAll
    public RootCauseResponse get(@PathParam("workspace") String workspace, @PathParam("key") String key) {
        return RootCauseResponse.of(rootCauses.get(Workspace.parse(workspace), IncidentKey.parse(key)));
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path("/reviews")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response review(@PathParam("workspace") String workspace, @PathParam("key") String key,
                           ReviewRequest body) {
        Workspace ws = Workspace.parse(workspace);
        IncidentKey incident = IncidentKey.parse(key);
        RootCauseResponse reviewed = RootCauseResponse.of(
                rootCauses.review(ws, incident, Bodies.required(body).toDraft()));
        return Response.status(Response.Status.CREATED).location(Links.rootCause(ws, incident)).entity(reviewed)
                .build();
    }
}
