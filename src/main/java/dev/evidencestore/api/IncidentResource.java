package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.domain.Incident;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Page;
import dev.evidencestore.domain.PageCursor;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Violations;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.service.IncidentService;
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
import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;

import java.io.IOException;

@Path("/api/v1/workspaces/{workspace}/incidents")
@Produces(MediaType.APPLICATION_JSON)
public class IncidentResource {

    private static final int DEFAULT_LIMIT = 50;
    private static final int MAX_LIMIT = 200;

    private final IncidentService incidents;
    private final ObjectMapper mapper;

    IncidentResource(IncidentService incidents, ObjectMapper mapper) {
        this.incidents = incidents;
        this.mapper = mapper;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@PathParam("workspace") String workspace, IncidentRequest body) {
        Workspace ws = Workspace.parse(workspace);
        IncidentRequest.NewIncident draft = Bodies.required(body).toNewIncident();
        Incident incident = incidents.create(ws, draft.key(), draft.details());
        return Response.created(Links.incident(incident.workspace(), incident.key()))
                .entity(IncidentResponse.of(incident)).build();
    }

    @GET
    @Path("/{key}")
    public IncidentResponse get(@PathParam("workspace") String workspace, @PathParam("key") String key) {
        return IncidentResponse.of(incidents.get(Workspace.parse(workspace), IncidentKey.parse(key)));
    }

    @GET
    public Response list(@PathParam("workspace") String workspace,
                         @QueryParam("limit") String limit,
                         @QueryParam("cursor") String cursor,
                         @Context UriInfo uri) {
        Workspace ws = Workspace.parse(workspace);
        Violations v = new Violations();
        Integer pageSize = limit == null ? DEFAULT_LIMIT : v.parse("limit", limit, IncidentResource::limit);
        PageCursor after = v.parse("cursor", cursor, PageCursor::parse);
        v.throwIfAny();
        Page<Incident> page = incidents.list(ws, pageSize, after);
        String next = page.next() == null ? null : page.next().toString();
        Response.ResponseBuilder response = Response.ok(new IncidentPageResponse(
                page.items().stream().map(IncidentResponse::of).toList(), next));
        if (next != null) {
            UriBuilder nextPage = uri.getRequestUriBuilder().replaceQueryParam("cursor", next);
            response.link(nextPage.build(), "next");
        }
        return response.build();
    }

    private static int limit(String text) {
        try {
            int value = Integer.parseInt(text);
            if (value >= 1 && value <= MAX_LIMIT) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below, with the rule
        }
        throw Refusal.invalid("limit", "must be an integer from 1 to " + MAX_LIMIT);
    }

    @PATCH
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
