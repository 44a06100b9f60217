package dev.evidencestore.api;

import dev.evidencestore.domain.ActionDraft;
import dev.evidencestore.domain.ActionItem;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ActionService;
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

/** The follow-up actions of one incident: recording them, and listing them soonest due first. */
@Path(Routes.INCIDENT_ACTIONS)
@Produces(MediaType.APPLICATION_JSON)
public class IncidentActionResource {

    private final ActionService actions;
    private final AuditedWrite writes;

    IncidentActionResource(ActionService actions, AuditedWrite writes) {
        this.writes = writes;
        this.actions = actions;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                           ActionRequest body) {
        ActionDraft draft = Bodies.required(body).toDraft();
        return writes.commit(() -> {
            ActionItem item = actions.create(workspace, key, draft);
            return Response.created(Routes.action(item.id())).entity(ActionResponse.of(item)).build();
        });
    }

    @GET
    @PermitAll
    public ActionListResponse list(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        return new ActionListResponse(actions.list(workspace, key).stream()
                .map(ActionResponse::of).toList());
    }
}
