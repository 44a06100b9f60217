package dev.evidencestore.api;

import dev.evidencestore.audit.AuditCheckpoints;
import dev.evidencestore.audit.AuditLog;
import dev.evidencestore.audit.AuditTree;
import dev.evidencestore.audit.AuditVerifier;
import dev.evidencestore.audit.HeldCheckpoint;
import dev.evidencestore.audit.TrustedKeys;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.NoFormBodies;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.security.Roles;
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

import java.util.Optional;

/**
 * The audit log as a transparency log: its signed checkpoints, the keys they are verified against, inclusion and
 * consistency proofs, the exact bytes of each leaf, and re-walking the whole log. Checkpoints, keys and proofs
 * reveal only the tree's size and hashes, so like Certificate Transparency they need no token.
 */
@Path("/api/v1/audit")
@Produces(MediaType.APPLICATION_JSON)
public class AuditChainResource {

    private static final String TEXT_UTF8 = MediaType.TEXT_PLAIN + ";charset=utf-8";

    private final AuditCheckpoints checkpoints;
    private final AuditVerifier verifier;
    private final AuditTree tree;
    private final AuditLog log;
    private final TrustedKeys keys;
    private final CurrentActor actor;
    private final AuditedWrite writes;

    AuditChainResource(AuditCheckpoints checkpoints, AuditVerifier verifier, AuditTree tree, AuditLog log,
                       TrustedKeys keys, CurrentActor actor, AuditedWrite writes) {
        this.checkpoints = checkpoints;
        this.verifier = verifier;
        this.tree = tree;
        this.log = log;
        this.keys = keys;
        this.actor = actor;
        this.writes = writes;
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path("/checkpoints")
    @NoFormBodies(bodiless = true)
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

    @GET
    @PermitAll
    @Path("/checkpoint")
    @Produces(TEXT_UTF8)
    public String note() {
        return checkpoints.latest().map(checkpoint -> checkpoint.note())
                .orElseThrow(() -> Refusal.notFound("no audit checkpoint has been written yet"));
    }

    @GET
    @PermitAll
    @Path("/keys")
    public AuditKeysResponse keys() {
        return AuditKeysResponse.of(keys.origin(), keys.all());
    }

    @GET
    @PermitAll
    @Path("/proof/inclusion")
    public InclusionProofResponse inclusion(@QueryParam("index") String index, @QueryParam("size") String size) {
        TreePositions at = TreePositions.parse("index", index, "size", size);
        return new InclusionProofResponse(at.first(), at.second(), tree.inclusionProof(at.first(), at.second()));
    }

    @GET
    @PermitAll
    @Path("/proof/consistency")
    public ConsistencyProofResponse consistency(@QueryParam("from") String from, @QueryParam("to") String to) {
        TreePositions sizes = TreePositions.parse("from", from, "to", to);
        return new ConsistencyProofResponse(sizes.first(), sizes.second(),
                tree.consistencyProof(sizes.first(), sizes.second()));
    }

    @GET
    @RolesAllowed({Roles.COLLECTOR, Roles.INVESTIGATOR, Roles.REVIEWER, Roles.READER})
    @Path("/entries/{index}")
    public byte[] entry(@PathParam("index") String index) {
        return log.leaf(TreePositions.position("index", index), actor.get());
    }

    @POST
    @RolesAllowed({Roles.COLLECTOR, Roles.INVESTIGATOR, Roles.REVIEWER, Roles.READER})
    @Path("/verify")
    @Consumes(MediaType.APPLICATION_JSON)
    public AuditVerdictResponse verify(AuditVerifyRequest body) {
        Optional<HeldCheckpoint> held = Optional.ofNullable(body).map(AuditVerifyRequest::checkpoint)
                .map(HeldCheckpoint::parse);
        return AuditVerdictResponse.of(verifier.verify(held));
    }
}
