package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.idempotency.Idempotent;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.IncidentService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.UriInfo;

import java.io.IOException;

@Path("/api/v1/workspaces/{workspace}/incidents")
@Produces(MediaType.APPLICATION_JSON)
public class IncidentResource {


    private final IncidentService incidents;
    private final ObjectMapper mapper;

    IncidentResource(IncidentService incidents, ObjectMapper mapper) {
        this.incidents = incidents;
        this.mapper = mapper;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@PathParam("workspace") String workspace, IncidentRequest body) {
        Workspace ws = Workspace.parse(workspace);
        IncidentRequest.NewIncident draft = Bodies.required(body).toNewIncident();
        Incident incident = incidents.create(ws, draft.key(), draft.details());
        return Response.created(Links.incident(incident.workspace(), incident.key()))
                .entity(IncidentResponse.of(incident)).build();
    }

    @GET
    @PermitAll
    @Path("/{key}")
    public IncidentResponse get(@PathParam("workspace") String workspace, @PathParam("key") String key) {
        return IncidentResponse.of(incidents.get(Workspace.parse(workspace), IncidentKey.parse(key)));
    }

    @GET
    @PermitAll
    public Response list(@PathParam("workspace") String workspace,
                         @QueryParam("limit") String limit,
                         @QueryParam("cursor") String cursor,
                         @Context UriInfo uri) {
        Workspace ws = Workspace.parse(workspace);
        PageRequest request = PageRequest.parse(limit, cursor);
        Page<Incident> page = incidents.list(ws, request.limit(), request.after());
        String next = page.next() == null ? null : page.next().toString();
        return PageRequest.linkNext(Response.ok(new IncidentPageResponse(
                page.items().stream().map(IncidentResponse::of).toList(), next)), uri, next).build();
    }

    @PATCH
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Path("/{key}")
    @Consumes({MergePatch.MEDIA_TYPE, MediaType.APPLICATION_JSON})
    public IncidentResponse patch(@PathParam("workspace") String workspace, @PathParam("key") String key,
                                  ObjectNode body) throws IOException {
        Workspace ws = Workspace.parse(workspace);
        IncidentKey incident = IncidentKey.parse(key);
        MergePatch<IncidentRequest> patch = MergePatch.read(mapper, body, IncidentRequest.class);
        return IncidentResponse.of(incidents.patch(ws, incident, patch.values().toPatch(patch.fields())));
    }
}
