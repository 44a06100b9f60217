package dev.evidencestore.api;

import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.TimelineEntryDraft;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.TimelineService;
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

/**
 * The timeline of one incident: recording entries and reading them back. Entries have no URI of their own, so a
 * new one is answered without a Location.
 */
@Path(Routes.TIMELINE)
@Produces(MediaType.APPLICATION_JSON)
public class TimelineResource {

    private final TimelineService timeline;
    private final AuditedWrite writes;

    TimelineResource(TimelineService timeline, AuditedWrite writes) {
        this.writes = writes;
        this.timeline = timeline;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response record(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                           TimelineEntryRequest body) {
        TimelineEntryDraft draft = Bodies.required(body).toDraft();
        return writes.commit(() -> Response.status(Response.Status.CREATED)
                .entity(TimelineEntryResponse.of(timeline.record(workspace, key, draft))).build());
    }

    @GET
    @PermitAll
    public TimelineResponse list(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        return new TimelineResponse(timeline.list(workspace, key).stream()
                .map(TimelineEntryResponse::of).toList());
    }
}
