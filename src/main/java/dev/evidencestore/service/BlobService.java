package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Workspace;
import dev.evidencestore.integrity.BlobIntegrity;
import dev.evidencestore.persistence.BlobEntity;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.storage.BlobStore;
import dev.evidencestore.storage.StoredBlob;
import dev.evidencestore.storage.UploadPolicy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

@ApplicationScoped
public class BlobService {

    private static final String OCTET_STREAM = "application/octet-stream";

    private final BlobStore store;
    private final long maxSize;
    private final CurrentActor actor;
    private final Set<String> publicWorkspaces;
    private final BlobIntegrity integrity;
    private final KnownUploads uploads;
    private final int batchItemsInFlight;

    BlobService(BlobStore store, EvidenceConfig config, CurrentActor actor,
                BlobIntegrity integrity, KnownUploads uploads) {
        this.actor = actor;
        this.uploads = uploads;
        this.integrity = integrity;
        this.store = store;
        this.maxSize = config.blob().maxSize().asLongValue();
        this.publicWorkspaces = config.publicReadWorkspaces().orElse(Set.of());
        this.batchItemsInFlight = itemsInFlight(config.batch().itemsInFlight(), store);
    }

    /** {@code evidence.batch.items-in-flight} when set, else the number the store does best with. */
    static int itemsInFlight(OptionalInt configured, BlobStore store) {
        return configured.orElseGet(store::smallWritesAtOnce);
    }

    /** How many small items of one batch upload are stored at once ({@link #itemsInFlight}). */
    public int batchItemsInFlight() {
        return batchItemsInFlight;
    }

    /**
     * Streams an upload to the backend, which makes the bytes durable; {@link #record} then records the blob, so no
     * row ever names bytes that are not there. No transaction is open while the bytes stream.
     */
    public StoredBlob receive(InputStream body, Set<Digest> declared, Long contentLength) throws IOException {
        // a Content-Length frames the body: Vert.x ends it there, and fails the read of a body cut short
        UploadPolicy policy = contentLength == null ? new UploadPolicy(declared, maxSize)
                : UploadPolicy.framed(declared, maxSize, contentLength);
        if (contentLength != null && contentLength > maxSize) {
            throw policy.tooLarge();
        }
        return store.put(body, policy);
    }

    /** Records received bytes as a blob uploaded by the caller, in the current transaction or a new one. */
    @Transactional
    public BlobIngest record(StoredBlob blob) {
        Attribution uploader = actor.attribution();
        boolean created = BlobEntity.record(blob.digest().toString(), blob.size(), uploader);
        uploads.recorded(uploader, blob.digest(), blob.size());
        return new BlobIngest(blob, created);
    }

    /** Records received bytes as blobs uploaded by the caller, as {@link #record} would each, in one batch. */
    @Transactional
    public void recordAll(List<StoredBlob> received) {
        Attribution uploader = actor.attribution();
        BlobEntity.recordAll(received.stream().map(blob -> new BlobEntity.Stored(blob.digest().toString(),
                blob.size())).toList(), uploader);
        received.forEach(blob -> uploads.recorded(uploader, blob.digest(), blob.size()));
    }

    /**
     * A blob's bytes, for a caller who may see them: through an artifact in a workspace they can read, or as one
     * of its uploaders. To everyone else it does not exist (or, without a token, needs one). Bytes found damaged
     * are refused to those who may see them.
     */
    @Transactional
    public BlobContent content(Digest digest) {
        Optional<Long> size = visibleSize(digest);
        if (size.isEmpty()) {
            if (actor.get().anonymous()) {
                throw new Refusal(ProblemType.UNAUTHORIZED, "this blob can be read only with a valid bearer token");
            }
            throw Refusal.notFound("no blob " + digest);
        }
        integrity.refuseIfDamaged(digest);
        return new BlobContent(digest, size.get(), OCTET_STREAM, store, integrity);
    }

    /**
     * The blob's size, when it was recorded and the caller may see it: one of its uploaders, or through an artifact
     * in a readable workspace. Empty otherwise, so that a blob the caller may not see is as unknown as a missing one.
     */
    Optional<Long> visibleSize(Digest digest) {
        Actor caller = actor.get();
        OptionalLong own = caller.anonymous() ? OptionalLong.empty() : uploads.size(caller.attribution(), digest);
        if (own.isPresent()) {
            return Optional.of(own.getAsLong());
        }
        return BlobEntity.visibility(digest.toString(), caller.attribution())
                .filter(blob -> blob.uploadedByCaller() && !caller.anonymous()
                        || blob.bindingWorkspaces().stream().anyMatch(ws -> publicWorkspaces.contains(ws)
                        || caller.mayRead() && caller.holds(Workspace.parse(ws))))
                .map(BlobEntity.Visibility::size);
    }
}
