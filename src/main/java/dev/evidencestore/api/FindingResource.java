package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.ReviewDraft;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.FindingService;
import dev.evidencestore.service.ReviewStatementService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.IOException;

/** One finding by its permanent ID: reading it, revising it while proposed, and reviewing it. */
@Path(Routes.FINDING)
@Produces(MediaType.APPLICATION_JSON)
public class FindingResource {

    private final FindingService findings;
    private final ObjectMapper mapper;
    private final AuditedWrite writes;
    private final ReviewStatementService statements;

    FindingResource(FindingService findings, ObjectMapper mapper, AuditedWrite writes,
                    ReviewStatementService statements) {
        this.writes = writes;
        this.statements = statements;
        this.findings = findings;
        this.mapper = mapper;
    }

    @GET
    @PermitAll
    public FindingResponse get(@PathParam("id") FindingId id) {
        return FindingResponse.of(findings.get(id));
    }

    @GET
    @PermitAll
    @Path(Routes.STATEMENTS)
    public ReviewStatementListResponse statements(@PathParam("id") FindingId id) {
        return ReviewStatementListResponse.of(statements.forFinding(id));
    }

    @PATCH
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes({MergePatch.MEDIA_TYPE, MediaType.APPLICATION_JSON})
    public Response revise(@PathParam("id") FindingId id, ObjectNode body) throws IOException {
        MergePatch<FindingRequest> patch = MergePatch.read(mapper, body, FindingRequest.class);
        return writes.commit(() -> Response.ok(FindingResponse.of(
                findings.revise(id, patch.values().toPatch(patch.fields())))).build());
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path(Routes.REVIEWS)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response review(@PathParam("id") FindingId id, ReviewRequest body) {
        ReviewDraft draft = Bodies.required(body).toDraft();
        return writes.commit(() -> Response.status(Response.Status.CREATED).location(Routes.finding(id))
                .entity(FindingResponse.of(findings.review(id, draft))).build());
    }
}
