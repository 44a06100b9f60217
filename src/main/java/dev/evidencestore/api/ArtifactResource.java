package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.idempotency.Idempotent;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ArtifactService;
import dev.evidencestore.service.ReferrerService;
import dev.evidencestore.service.VerificationService;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** One artifact by its permanent ID: metadata, bytes and verifications. */
@Path("/api/v1/artifacts/{id}")
public class ArtifactResource {

    private final ArtifactService artifacts;
    private final VerificationService verifications;
    private final ReferrerService referrers;

    ArtifactResource(ArtifactService artifacts, VerificationService verifications, ReferrerService referrers) {
        this.artifacts = artifacts;
        this.verifications = verifications;
        this.referrers = referrers;
    }

    @GET
    @PermitAll
    @Produces(MediaType.APPLICATION_JSON)
    public ArtifactResponse get(@PathParam("id") String id) {
        return ArtifactResponse.of(artifacts.get(ArtifactId.parse(id)));
    }

    @GET
    @PermitAll
    @Path("/content")
    public Response content(@PathParam("id") String id, @HeaderParam("Range") String range,
                            @HeaderParam("If-Range") String ifRange,
                            @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        return BlobRepresentation.get(artifacts.content(ArtifactId.parse(id)), range, ifRange, ifNoneMatch);
    }

    @HEAD
    @PermitAll
    @Path("/content")
    public Response contentHead(@PathParam("id") String id, @HeaderParam("Range") String range,
                                @HeaderParam("If-Range") String ifRange,
                                @HeaderParam(HttpHeaders.IF_NONE_MATCH) String ifNoneMatch) {
        return BlobRepresentation.head(artifacts.content(ArtifactId.parse(id)), range, ifRange, ifNoneMatch);
    }

    @POST
    @Idempotent
    @RolesAllowed(Roles.REVIEWER)
    @Path("/verifications")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response verify(@PathParam("id") String id, VerificationRequest body) {
        ArtifactId artifactId = ArtifactId.parse(id);
        VerificationResponse result = VerificationResponse.of(
                verifications.verify(artifactId, VerificationRequest.claimedDigest(body)));
        return Response.status(Response.Status.CREATED).entity(result).build();
    }

    @GET
    @PermitAll
    @Path("/verifications")
    @Produces(MediaType.APPLICATION_JSON)
    public VerificationListResponse verifications(@PathParam("id") String id) {
        return new VerificationListResponse(verifications.list(ArtifactId.parse(id)).stream()
                .map(VerificationResponse::of).toList());
    }

    @GET
    @PermitAll
    @Path("/citations")
    @Produces(MediaType.APPLICATION_JSON)
    public CitationsResponse citations(@PathParam("id") String id) {
        ArtifactId artifactId = ArtifactId.parse(id);
        return new CitationsResponse(artifactId.toString(), referrers.referrers(artifactId).stream()
                .map(ReferrerResponse::of).toList());
    }
}
