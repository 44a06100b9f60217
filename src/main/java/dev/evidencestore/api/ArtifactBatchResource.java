package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.IncidentKey;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.http.AuditedWrite;
import dev.evidencestore.http.ClientUpload;
import dev.evidencestore.http.ContentDigestHeader;
import dev.evidencestore.http.Idempotent;
import dev.evidencestore.http.NoFormBodies;
import dev.evidencestore.http.ProblemMapper;
import dev.evidencestore.http.Problems;
import dev.evidencestore.http.Routes;
import dev.evidencestore.security.Roles;
import dev.evidencestore.service.ArtifactBinding;
import dev.evidencestore.service.ArtifactService;
import dev.evidencestore.service.BlobService;
import dev.evidencestore.storage.BlobTooLarge;
import dev.evidencestore.storage.DigestMismatch;
import dev.evidencestore.storage.StoredBlob;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.apache.commons.codec.digest.DigestUtils;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.eclipse.microprofile.context.ManagedExecutor;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.util.Optional;
import java.util.Set;

/**
 * Many artifacts in one request: a tar body whose first entry, {@code batch.json}, declares the items, followed by
 * one entry of bytes per item in any order. Each item is checked against its declared digest and bound write-once
 * exactly as one upload and one bind would be, in a transaction of its own with its own audit entry; the answer
 * (200) says what became of each. {@code application/x-tar} is not a type a cross-site form can send.
 */
@Path(Routes.INCIDENT_ARTIFACT_BATCHES)
public class ArtifactBatchResource {

    static final String TAR = "application/x-tar";
    /**
     * Items up to this size are read into memory and stored on another thread; at most
     * {@code evidence.batch.items-in-flight} of them per batch, so one batch holds at most that many times this.
     */
    static final int HELD_ITEM = 64 * 1024;

    private final BlobService blobs;
    private final ArtifactService artifacts;
    private final AuditedWrite writes;
    private final ObjectMapper mapper;
    private final EvidenceConfig.Batch limits;
    private final ManagedExecutor executor;

    ArtifactBatchResource(BlobService blobs, ArtifactService artifacts, AuditedWrite writes,
                          ObjectMapper mapper, EvidenceConfig config, ManagedExecutor executor) {
        this.executor = executor;
        this.blobs = blobs;
        this.artifacts = artifacts;
        this.writes = writes;
        this.mapper = mapper;
        this.limits = config.batch();
    }

    @POST
    @Idempotent(streamedBody = true)
    @RolesAllowed(Roles.COLLECTOR)
    @Consumes(TAR)
    @NoFormBodies
    @Produces(MediaType.APPLICATION_JSON)
    public ArtifactBatchResponse upload(@PathParam("workspace") Workspace workspace, @PathParam("key") IncidentKey key,
                                        @HeaderParam(ContentDigestHeader.NAME) String contentDigest,
                                        InputStream body) throws IOException {
        // an unknown incident is refused before a byte of the body is read
        ArtifactService.BindTarget target = artifacts.bindTarget(workspace, key);
        DigestInputStream hashed = new DigestInputStream(new ClientUpload(body), DigestUtils.getSha256Digest());
        try (BatchArchive archive = new BatchArchive(hashed, limits)) {
            ArtifactBatch batch = new ArtifactBatch(archive.manifest(mapper));
            try (ItemsInFlight inFlight = new ItemsInFlight(executor, limits.itemsInFlight(), batch::bound)) {
                for (TarArchiveEntry entry = archive.nextFile(); entry != null; entry = archive.nextFile()) {
                    Optional<ArtifactBatch.Pending> item = batch.arrived(entry.getName());
                    if (item.isPresent()) {
                        receive(target, item.get(), archive, entry, inFlight, batch);
                    }
                }
                inFlight.finishAll();
            }
            archive.readPadding(hashed);
            checkContentDigest(contentDigest, Digest.of(hashed.getMessageDigest().digest()));
            return new ArtifactBatchResponse(batch.results());
        } catch (BatchArchive.Malformed e) {
            throw new Refusal(ProblemType.INVALID_REQUEST, e.getMessage() + "; the items before the fault were stored "
                    + "and bound, and a retry with the same items binds the rest");
        }
    }

    /**
     * A small item's bytes are read here and stored and bound on another thread while the next entries are read; a
     * larger one streams into the store from here, as a lone upload would.
     */
    private void receive(ArtifactService.BindTarget target, ArtifactBatch.Pending item, BatchArchive archive,
                         TarArchiveEntry entry, ItemsInFlight inFlight, ArtifactBatch batch) throws IOException {
        if (entry.getSize() > HELD_ITEM) {
            try (InputStream bytes = archive.content(entry)) {
                batch.bound(item.path(), store(target, item, bytes, entry.getSize()));
            }
            return;
        }
        byte[] bytes;
        try (InputStream content = archive.content(entry)) {
            bytes = content.readNBytes((int) entry.getSize());
        }
        inFlight.start(item.path(), () -> store(target, item, new ByteArrayInputStream(bytes), bytes.length));
    }

    private ArtifactBatchResult store(ArtifactService.BindTarget target, ArtifactBatch.Pending item,
                                      InputStream bytes, long size) throws IOException {
        StoredBlob received;
        try {
            received = blobs.receive(bytes, Set.of(item.draft().digest()), size);
        } catch (DigestMismatch e) {
            return refused(item.path(), ProblemMapper.refusal(e));
        } catch (BlobTooLarge e) {
            return refused(item.path(), ProblemMapper.refusal(e));
        }
        try {
            Response answer = writes.commit(() -> bound(artifacts.bindReceived(target, received, item.draft())));
            ArtifactResponse artifact = (ArtifactResponse) answer.getEntity();
            return new ArtifactBatchResult(item.path(), artifact.id(), artifact.digest(), answer.getStatus(), null);
        } catch (Refusal refusal) {
            return refused(item.path(), refusal);
        }
    }

    /**
     * The body's {@code Content-Digest}, which a retry with an Idempotency-Key is recognised by: checked once the
     * whole body has been read. Each item was already checked against its own digest, so what was bound stays bound.
     */
    private static void checkContentDigest(String header, Digest computed) {
        ContentDigestHeader.sha256(header).filter(declared -> !declared.equals(computed)).ifPresent(declared -> {
            throw new Refusal(ProblemType.DIGEST_MISMATCH, "the body has digest " + computed + ", not the "
                    + declared + " its Content-Digest declares; its items were checked against their own digests")
                    .with("declaredDigest", declared.toString()).with("computedDigest", computed.toString());
        });
    }

    /** A refused item is audited as a refused bind would be, in its own entry. */
    private ArtifactBatchResult refused(String path, Refusal refusal) {
        writes.commit(() -> Problems.response(refusal));
        return ArtifactBatchResult.refused(path, refusal);
    }

    private static Response bound(ArtifactBinding binding) {
        return Response.status(binding.created() ? Response.Status.CREATED : Response.Status.OK)
                .location(Routes.artifact(binding.artifact().id()))
                .entity(ArtifactResponse.of(binding.artifact())).build();
    }
}
