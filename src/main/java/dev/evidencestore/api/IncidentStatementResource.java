package dev.evidencestore.api;

import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.Routes;
import dev.evidencestore.service.ReviewStatementService;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** The signed statements of every review decision of one incident: its findings' and its root cause's. */
@Path(Routes.INCIDENT_STATEMENTS)
@Produces(MediaType.APPLICATION_JSON)
public class IncidentStatementResource {

    private final ReviewStatementService statements;

    IncidentStatementResource(ReviewStatementService statements) {
        this.statements = statements;
    }

    @GET
    @PermitAll
    public ReviewStatementListResponse list(@PathParam("workspace") Workspace workspace,
                                            @PathParam("key") IncidentKey key) {
        return ReviewStatementListResponse.of(statements.forIncident(workspace, key));
    }
}
