package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.domain.ActionPatch;
import dev.evidencestore.domain.SequenceId;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ActionService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.IOException;

/** One action by its permanent ID: reading it, and moving it along (status and due date). */
@Path(Routes.ACTION)
@Produces(MediaType.APPLICATION_JSON)
public class ActionResource {

    private final ActionService actions;
    private final ObjectMapper mapper;
    private final AuditedWrite writes;

    ActionResource(ActionService actions, ObjectMapper mapper, AuditedWrite writes) {
        this.writes = writes;
        this.actions = actions;
        this.mapper = mapper;
    }

    @GET
    @PermitAll
    public ActionResponse get(@PathParam("id") SequenceId id) {
        return ActionResponse.of(actions.get(id));
    }

    @PATCH
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes({MergePatch.MEDIA_TYPE, MediaType.APPLICATION_JSON})
    public Response patch(@PathParam("id") SequenceId id, ObjectNode body) throws IOException {
        ActionPatch patch = ActionPatchRequest.parse(Bodies.required(body), mapper);
        return writes.commit(() -> Response.ok(ActionResponse.of(actions.patch(id, patch))).build());
    }
}
