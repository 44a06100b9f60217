package dev.evidencestore.api;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.ClientUpload;
import dev.evidencestore.http.ContentDigestHeader;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.NoFormBodies;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.BlobIngest;
import dev.evidencestore.service.BlobService;
import dev.evidencestore.storage.StoredBlob;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HEAD;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Set;

/** Content-addressed bytes, the OCI-registry way: the digest is the name, and the server checks it. */
@Path(Routes.BLOBS)
public class BlobResource {

    private final BlobService blobs;
    private final AuditedWrite writes;

    BlobResource(BlobService blobs, AuditedWrite writes) {
        this.writes = writes;
        this.blobs = blobs;
    }

    @PUT
    @Idempotent(streamedBody = true)
    @RolesAllowed(Roles.COLLECTOR)
    @Path(Routes.BLOB)
    @Consumes(MediaType.WILDCARD)
    @NoFormBodies
    @Produces(MediaType.APPLICATION_JSON)
    public Response put(@PathParam("digest") Digest digest,
                        @HeaderParam(ContentDigestHeader.NAME) String contentDigest,
                        @HeaderParam(HttpHeaders.CONTENT_LENGTH) Long contentLength,
                        InputStream body) throws IOException {
        Set<Digest> declared = new HashSet<>();
        declared.add(digest);
        ContentDigestHeader.sha256(contentDigest).ifPresent(declared::add);
        StoredBlob received = blobs.receive(new ClientUpload(body), declared, contentLength);
        return writes.commit(() -> stored(blobs.record(received)));
    }

    @POST
    @Idempotent(streamedBody = true)
    @RolesAllowed(Roles.COLLECTOR)
    @Consumes(MediaType.WILDCARD)
    @NoFormBodies
    @Produces(MediaType.APPLICATION_JSON)
    public Response post(@HeaderParam(ContentDigestHeader.NAME) String contentDigest,
                         @HeaderParam(HttpHeaders.CONTENT_LENGTH) Long contentLength,
                         InputStream body) throws IOException {
        Set<Digest> declared = new HashSet<>();
        ContentDigestHeader.sha256(contentDigest).ifPresent(declared::add);
        StoredBlob received = blobs.receive(new ClientUpload(body), declared, contentLength);
        return writes.commit(() -> stored(blobs.record(received)));
    }

    @GET
    @PermitAll
    @Path(Routes.BLOB)
    public Response get(@PathParam("digest") Digest digest, @BeanParam ReadConditions conditions) {
        return BlobRepresentation.get(blobs.content(digest), conditions);
    }

    @HEAD
    @PermitAll
    @Path(Routes.BLOB)
    public Response head(@PathParam("digest") Digest digest, @BeanParam ReadConditions conditions) {
        return BlobRepresentation.head(blobs.content(digest), conditions);
    }

    private static Response stored(BlobIngest ingest) {
        Response.ResponseBuilder response = ingest.created() ? Response.status(Response.Status.CREATED)
                : Response.ok();
        return response.location(Routes.blob(ingest.blob().digest())).entity(BlobResponse.of(ingest.blob())).build();
    }
}
