package dev.evidencestore.api;

import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ReviewDraft;
import dev.evidencestore.domain.RootCauseDraft;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ReviewStatementService;
import dev.evidencestore.service.RootCauseBinding;
import dev.evidencestore.service.RootCauseService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The root cause of one incident, with the whole chain of evidence beneath it, and its reviews. */
@Path(Routes.ROOT_CAUSE)
@Produces(MediaType.APPLICATION_JSON)
public class RootCauseResource {

    private final RootCauseService rootCauses;
    private final AuditedWrite writes;
    private final ReviewStatementService statements;

    RootCauseResource(RootCauseService rootCauses, AuditedWrite writes, ReviewStatementService statements) {
        this.writes = writes;
        this.statements = statements;
        this.rootCauses = rootCauses;
    }

    @PUT
    @Idempotent
    @RolesAllowed(Roles.INVESTIGATOR)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response put(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                        RootCauseRequest body) {
        RootCauseDraft draft = Bodies.required(body).toDraft();
        return writes.commit(() -> {
            RootCauseBinding binding = rootCauses.put(workspace, key, draft);
            Response.ResponseBuilder response = binding.created() ? Response.status(Response.Status.CREATED)
                    : Response.ok();
            return response.location(Routes.rootCause(workspace, key))
                    .entity(RootCauseResponse.of(binding.rootCause())).build();
        });
    }

    @GET
    @PermitAll
    public RootCauseResponse get(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key) {
        return RootCauseResponse.of(rootCauses.get(workspace, key));
    }

    @GET
    @PermitAll
    @Path(Routes.STATEMENTS)
    public ReviewStatementListResponse statements(@PathParam("workspace") Workspace workspace,
                                                  @PathParam("key") IncidentKey key) {
        return ReviewStatementListResponse.of(statements.forRootCause(workspace, key));
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path(Routes.REVIEWS)
    @Consumes(MediaType.APPLICATION_JSON)
    public Response review(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                           ReviewRequest body) {
        ReviewDraft draft = Bodies.required(body).toDraft();
        return writes.commit(() -> Response.status(Response.Status.CREATED).location(Routes.rootCause(workspace, key))
                .entity(RootCauseResponse.of(rootCauses.review(workspace, key, draft))).build());
    }
}
