package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.idempotency.Idempotent;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.FindingService;
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
@Path("/api/v1/findings/{id}")
@Produces(MediaType.APPLICATION_JSON)
public class FindingByIdResource {

    private final FindingService findings;
    private final ObjectMapper mapper;

    FindingByIdResource(FindingService findings, ObjectMapper mapper) {
        this.findings = findings;
        this.mapper = mapper;
    }

    @GET
    @PermitAll
    public FindingResponse get(@PathParam("id") String id) {
        return FindingResponse.of(findings.get(FindingId.parse(id)));
    }

    @PATCH
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes({MergePatch.MEDIA_TYPE, MediaType.APPLICATION_JSON})
    public FindingResponse revise(@PathParam("id") String id, ObjectNode body) throws IOException {
        FindingId findingId = FindingId.parse(id);
        MergePatch<FindingRequest> patch = MergePatch.read(mapper, body, FindingRequest.class);
        return FindingResponse.of(findings.revise(findingId, patch.values().toPatch(patch.fields())));
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path("/reviews")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response review(@PathParam("id") String id, ReviewRequest body) {
        FindingId findingId = FindingId.parse(id);
        FindingResponse reviewed = FindingResponse.of(findings.review(findingId, Bodies.required(body).toDraft()));
        return Response.status(Response.Status.CREATED).location(Links.finding(findingId)).entity(reviewed).build();
    }
}
