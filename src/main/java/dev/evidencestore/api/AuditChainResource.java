package dev.evidencestore.api;

import dev.evidencestore.audit.AuditCheckpoints;
import dev.evidencestore.audit.AuditVerifier;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.security.Roles;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** The audit chain as a whole: signed checkpoints of it, and re-walking it to show it is intact. */
@Path("/api/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditChainResource {

    private final AuditCheckpoints checkpoints;
    private final AuditVerifier verifier;
    private final AuditedWrite writes;

    AuditChainResource(AuditCheckpoints checkpoints, AuditVerifier verifier, AuditedWrite writes) {
        this.writes = writes;
        this.checkpoints = checkpoints;
        this.verifier = verifier;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path("/checkpoints")
    public Response checkpoint() {
        return writes.commit(() -> Response.status(Response.Status.CREATED)
                .entity(AuditCheckpointResponse.of(checkpoints.create())).build());
    }

    @GET
    @RolesAllowed({Roles.COLLECTOR, Roles.INVESTIGATOR, Roles.REVIEWER, Roles.READER})
    @Path("/checkpoints/latest")
    public AuditCheckpointResponse latest() {
        return checkpoints.latest().map(AuditCheckpointResponse::of)
                .orElseThrow(() -> Refusal.notFound("no audit checkpoint has been written yet"));
    }

    @POST
    @RolesAllowed({Roles.COLLECTOR, Roles.INVESTIGATOR, Roles.REVIEWER, Roles.READER})
    @Path("/verify")
    public AuditVerdictResponse verify() {
        return AuditVerdictResponse.of(verifier.verify());
    }
}
