package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
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
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.io.IOException;

@Path(Routes.INCIDENTS)
@Produces(MediaType.APPLICATION_JSON)
public class IncidentResource {


    private final IncidentService incidents;
    private final ObjectMapper mapper;
    private final AuditedWrite writes;

    IncidentResource(IncidentService incidents, ObjectMapper mapper, AuditedWrite writes) {
        this.writes = writes;
        this.incidents = incidents;
        this.mapper = mapper;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@PathParam("workspace") Workspace workspace, IncidentRequest body) {
        IncidentRequest.NewIncident draft = Bodies.required(body).toNewIncident();
        return writes.commit(() -> {
            Incident incident = incidents.create(workspace, draft.key(), draft.details());
            return Response.created(Routes.incident(incident.workspace(), incident.key()))
                    .entity(IncidentResponse.of(incident)).build();
        });
    }

    @GET
    @PermitAll
    @Path(Routes.INCIDENT)
    public IncidentResponse get(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        return IncidentResponse.of(incidents.get(workspace, key));
    }

    @GET
    @PermitAll
    public Response list(@PathParam("workspace") Workspace workspace,
                         @QueryParam("limit") String limit,
                         @QueryParam("cursor") String cursor,
                         @Context UriInfo uri) {
        PageRequest request = PageRequest.parse(limit, cursor);
        Page<Incident> page = incidents.list(workspace, request.limit(), request.after());
        String next = page.next() == null ? null : page.next().toString();
        return PageRequest.linkNext(Response.ok(new IncidentPageResponse(
                page.items().stream().map(IncidentResponse::of).toList(), next)), uri, next).build();
    }

    @PATCH
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Path(Routes.INCIDENT)
    @Consumes({MergePatch.MEDIA_TYPE, MediaType.APPLICATION_JSON})
    public Response patch(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                          ObjectNode body) throws IOException {
        MergePatch<IncidentRequest> patch = MergePatch.read(mapper, body, IncidentRequest.class);
        return writes.commit(() -> Response.ok(IncidentResponse.of(
                incidents.patch(workspace, key, patch.values().toPatch(patch.fields())))).build());
    }
}
