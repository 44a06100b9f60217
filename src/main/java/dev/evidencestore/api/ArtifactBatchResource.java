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
import dev.evidencestore.service.ArtifactService;
import dev.evidencestore.service.BlobService;
import dev.evidencestore.service.ItemBinding;
import dev.evidencestore.service.ReceivedItem;
import dev.evidencestore.storage.BlobTooLarge;
import dev.evidencestore.storage.DigestMismatch;
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
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Many artifacts in one request: a tar body whose first entry, {@code batch.json}, declares the items, followed by
 * one entry of bytes per item in any order. Each item is checked against its declared digest and bound write-once
 * exactly as one upload and one bind would be, with its own audit entry, and its outcome is its own: a refused item
 * leaves the others bound. Stored items are bound a group at a time ({@code evidence.batch.items-per-transaction}),
 * one commit for the group. The answer (200) says what became of each. {@code application/x-tar} is not a type a
 * cross-site form can send.
 */
@Path(Routes.INCIDENT_ARTIFACT_BATCHES)
public class ArtifactBatchResource {

    static final String TAR = "application/x-tar";
    /**
     * Items up to this size are read into memory and stored on another thread; at most
     * {@link BlobService#batchItemsInFlight()} of them per batch, so one batch holds at most that many times this.
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
            ReceivedItems received = new ReceivedItems(limits.itemsPerTransaction(), executor,
                    group -> bind(target, group, batch));
            try (ItemsInFlight<ReceivedItems.Received> inFlight = new ItemsInFlight<>(executor,
                    blobs.batchItemsInFlight(), received::add)) {
                receiveAll(archive, batch, inFlight, received);
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
     * Reads every entry and binds every item. When the body or the store fails midway, the items whose bytes were
     * made durable before are still bound, so a retry only has the rest to do.
     */
    private void receiveAll(BatchArchive archive, ArtifactBatch batch,
                            ItemsInFlight<ReceivedItems.Received> inFlight, ReceivedItems received) throws IOException {
        try {
            for (TarArchiveEntry entry = archive.nextFile(); entry != null; entry = archive.nextFile()) {
                Optional<ArtifactBatch.Pending> item = batch.arrived(entry.getName());
                if (item.isPresent()) {
                    receive(item.get(), archive, entry, inFlight, received);
                }
            }
            inFlight.finishAll();
        } catch (IOException | RuntimeException fault) {
            try {
                inFlight.settle();
                received.bind();
            } catch (RuntimeException alsoFailed) {
                fault.addSuppressed(alsoFailed);
            }
            throw fault;
        }
        received.bind();
    }

    /**
     * A small item's bytes are read here and made durable on another thread while the next entries are read; a
     * larger one streams into the store from here, as a lone upload would.
     */
    private void receive(ArtifactBatch.Pending item, BatchArchive archive, TarArchiveEntry entry,
                         ItemsInFlight<ReceivedItems.Received> inFlight, ReceivedItems received) throws IOException {
        if (entry.getSize() > HELD_ITEM) {
            try (InputStream bytes = archive.content(entry)) {
                received.add(store(item, bytes, entry.getSize()));
            }
            return;
        }
        byte[] bytes;
        try (InputStream content = archive.content(entry)) {
            bytes = content.readNBytes((int) entry.getSize());
        }
        inFlight.start(() -> store(item, new ByteArrayInputStream(bytes), bytes.length));
    }

    private ReceivedItems.Received store(ArtifactBatch.Pending item, InputStream bytes, long size)
            throws IOException {
        try {
            return ReceivedItems.Received.stored(item, blobs.receive(bytes, Set.of(item.draft().digest()), size));
        } catch (DigestMismatch e) {
            return ReceivedItems.Received.refused(item, ProblemMapper.refusal(e));
        } catch (BlobTooLarge e) {
            return ReceivedItems.Received.refused(item, ProblemMapper.refusal(e));
        }
    }

    /**
     * Binds a group of received items in one transaction, each with its own audit entry as a lone bind (or a lone
     * refused upload) would have; their results are the batch's only once it committed.
     */
    private void bind(ArtifactService.BindTarget target, List<ReceivedItems.Received> group, ArtifactBatch batch) {
        List<ArtifactBatchResult> results = new ArrayList<>();
        writes.commitEach(() -> {
            Iterator<ItemBinding> bindings = bindStored(target, group);
            List<Response> answers = new ArrayList<>();
            for (ReceivedItems.Received item : group) {
                ItemBinding binding = item.refusal() == null ? bindings.next() : null;
                Refusal refusal = binding == null ? item.refusal() : binding.refusal();
                String path = item.item().path();
                if (refusal != null) {
                    answers.add(Problems.response(refusal));
                    results.add(ArtifactBatchResult.refused(path, refusal));
                } else {
                    Response.Status status = binding.created() ? Response.Status.CREATED : Response.Status.OK;
                    answers.add(Response.status(status).location(Routes.artifact(binding.id())).build());
                    results.add(new ArtifactBatchResult(path, binding.id().toString(), binding.digest().toString(),
                            status.getStatusCode(), null));
                }
            }
            return answers;
        });
        results.forEach(result -> batch.bound(result.path(), result));
    }

    /** The bindings of the group's items that were stored, in their order. */
    private Iterator<ItemBinding> bindStored(ArtifactService.BindTarget target, List<ReceivedItems.Received> group) {
        List<ReceivedItem> stored = group.stream().filter(item -> item.refusal() == null)
                .map(item -> new ReceivedItem(item.blob(), item.item().draft())).toList();
        return stored.isEmpty() ? Collections.emptyIterator()
                : artifacts.bindAllReceived(target, stored).iterator();
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
}
