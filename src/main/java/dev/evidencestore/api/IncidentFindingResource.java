package dev.evidencestore.api;

import dev.evidencestore.domain.FindingDraft;
import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ReviewStatus;
import dev.evidencestore.domain.Violations;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
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
@Path(Routes.INCIDENT_FINDINGS)
@Produces(MediaType.APPLICATION_JSON)
public class IncidentFindingResource {

    private final FindingService findings;
    private final AuditedWrite writes;

    IncidentFindingResource(FindingService findings, AuditedWrite writes) {
        this.writes = writes;
        this.findings = findings;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response propose(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                            FindingRequest body) {
        FindingDraft draft = Bodies.required(body).toDraft();
        return writes.commit(() -> {
            FindingBinding binding = findings.propose(workspace, key, draft);
            Response.ResponseBuilder response = binding.created() ? Response.status(Response.Status.CREATED)
                    : Response.ok();
            return response.location(Routes.finding(binding.finding().id()))
                    .entity(FindingResponse.of(binding.finding())).build();
        });
    }

    @GET
    @PermitAll
    public FindingListResponse list(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                                    @QueryParam("kind") String kind, @QueryParam("status") String status) {
        Violations v = new Violations();
        FindingKind kindFilter = v.parse("kind", kind, FindingKind::parse);
        ReviewStatus statusFilter = v.parse("status", status, ReviewStatus::parse);
        v.throwIfAny();
        return new FindingListResponse(findings.list(workspace, key, kindFilter, statusFilter).stream()
                .map(FindingResponse::of).toList());
    }
}
