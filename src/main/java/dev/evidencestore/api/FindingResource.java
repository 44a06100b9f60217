package dev.evidencestore.api;

import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.Violations;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.idempotency.Idempotent;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.FindingBinding;
import dev.evidencestore.service.FindingService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The findings of one incident: proposing them, and listing them by kind and status. */
@Path("/api/v1/workspaces/{workspace}/incidents/{key}/findings")
@Produces(MediaType.APPLICATION_JSON)
public class FindingResource {

    private final FindingService findings;

    FindingResource(FindingService findings) {
        this.findings = findings;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response propose(@PathParam("workspace") String workspace, @PathParam("key") String key,
                            FindingRequest body) {
        Workspace ws = Workspace.parse(workspace);
        IncidentKey incident = IncidentKey.parse(key);
        FindingBinding binding = findings.propose(ws, incident, Bodies.required(body).toDraft());
        Response.ResponseBuilder response = binding.created() ? Response.status(Response.Status.CREATED)
                : Response.ok();
        return response.location(Links.finding(binding.finding().id()))
                .entity(FindingResponse.of(binding.finding())).build();
    }

    @GET
    @PermitAll
    public FindingListResponse list(@PathParam("workspace") String workspace, @PathParam("key") String key,
                                    @QueryParam("kind") String kind, @QueryParam("status") String status) {
        Workspace ws = Workspace.parse(workspace);
        IncidentKey incident = IncidentKey.parse(key);
        Violations v = new Violations();
        FindingKind kindFilter = v.parse("kind", kind, FindingKind::parse);
        ReviewStatus statusFilter = v.parse("status", status, ReviewStatus::parse);
        v.throwIfAny();
        return new FindingListResponse(findings.list(ws, incident, kindFilter, statusFilter).stream()
                .map(FindingResponse::of).toList());
    }
}
