package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ArtifactService;
import dev.evidencestore.service.PreviewService;
import dev.evidencestore.service.ReferrerService;
import dev.evidencestore.service.VerificationService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** One artifact by its permanent ID: metadata, bytes and verifications. */
@Path(Routes.ARTIFACT)
public class ArtifactResource {

    private final ArtifactService artifacts;
    private final VerificationService verifications;
    private final ReferrerService referrers;
    private final AuditedWrite writes;
    private final PreviewService previews;

    ArtifactResource(ArtifactService artifacts, VerificationService verifications, ReferrerService referrers,
                     AuditedWrite writes, PreviewService previews) {
        this.previews = previews;
        this.writes = writes;
        this.artifacts = artifacts;
        this.verifications = verifications;
        this.referrers = referrers;
    }

    @GET
    @PermitAll
    @Produces(MediaType.APPLICATION_JSON)
    public ArtifactResponse get(@PathParam("id") ArtifactId id) {
        PreviewService.DescribedArtifact described = previews.describe(id);
        return ArtifactResponse.of(described.artifact(), described.derivedFacts());
    }

    @GET
    @PermitAll
    @Path("/content")
    public Response content(@PathParam("id") ArtifactId id, @BeanParam ReadConditions conditions) {
        return BlobRepresentation.get(artifacts.content(id), conditions);
    }

    @HEAD
    @PermitAll
    @Path("/content")
    public Response contentHead(@PathParam("id") ArtifactId id, @BeanParam ReadConditions conditions) {
        return BlobRepresentation.head(artifacts.content(id), conditions);
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path(Routes.VERIFICATIONS)
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response verify(@PathParam("id") ArtifactId id, VerificationRequest body) {
        VerificationService.Rehashed rehashed = verifications.rehash(id, VerificationRequest.claimedDigest(body));
        return writes.commit(() -> Response.status(Response.Status.CREATED)
                .entity(VerificationResponse.of(verifications.record(rehashed))).build());
    }

    @GET
    @PermitAll
    @Path(Routes.VERIFICATIONS)
    @Produces(MediaType.APPLICATION_JSON)
    public VerificationListResponse verifications(@PathParam("id") ArtifactId id) {
        return new VerificationListResponse(verifications.list(id).stream()
                .map(VerificationResponse::of).toList());
    }

    @GET
    @PermitAll
    @Path("/citations")
    @Produces(MediaType.APPLICATION_JSON)
    public CitationsResponse citations(@PathParam("id") ArtifactId id) {
        return new CitationsResponse(id.toString(), referrers.referrers(id).stream()
                .map(ReferrerResponse::of).toList());
    }
}
