package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import org.jboss.logging.Logger;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.CompletedPart;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;

/**
 * Blobs as objects in an S3 bucket under {@code sha256/ab/abcd…}. A blob smaller than one part is hashed in memory
 * and, once it matches the upload policy, written with one PutObject straight to its digest key. Over https, a
 * larger one whose digest and size the client declared streams to its digest key as one PutObject, its last bytes
 * sent only once the whole blob hashed to the digest. Otherwise it streams part by part into a multipart upload
 * while it is hashed, the next part read while earlier ones are sent: straight to its digest key when the client
 * declared the digest, completed only once the bytes match it; else to a staging key, copied server-side to its
 * digest key once complete and matching, and the staging object deleted. Any failure cuts the PutObject short or
 * aborts the multipart upload, so an object under a digest key is always the complete bytes of that digest.
 */
public final class S3BlobStore implements BlobStore, Closeable {

    private static final Logger LOG = Logger.getLogger(S3BlobStore.class);

    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;

    /**
     * How an upload is cut into requests and how many are sent at once: S3's own limits, unless a test shrinks them
     * to reach every path. {@code sharedBuffers}: part buffers all uploads share beyond each one's first.
     * {@code lookUpBeforeShortPut}: whether a blob sent whole from memory is looked up first, for stores that ignore
     * a PutObject's {@code If-None-Match} and would write a stored blob again.
     */
    record Transfer(int partSize, long wholePutMax, long singleCopyMax, long copyPartSize, int partsInFlight,
                    int sharedBuffers, long streamedPutMax, boolean lookUpBeforeShortPut) {

        /** CopyObject copies at most 5 GiB, and PutObject stores as much; larger objects go part by part. */
        static final long MAX_SINGLE_COPY = 5L * 1024 * 1024 * 1024;
        static final long MAX_PUT = 5L * 1024 * 1024 * 1024;
        static final long COPY_PART = 1024L * 1024 * 1024;

        Transfer {
            if (partsInFlight < 1) {
                throw new IllegalArgumentException("at least one part must be in flight, not " + partsInFlight);
            }
        }

        /** Without streamed PutObjects, as over plain http, where the SDK reads a body twice to sign it. */
        static Transfer of(int partSize, int partsInFlight, int sharedBuffers) {
            return new Transfer(partSize, partSize - 1L, MAX_SINGLE_COPY, COPY_PART, partsInFlight, sharedBuffers, 0,
                    true);
        }

        /** With blobs of a declared digest and size up to S3's largest PutObject streamed in one request. */
        Transfer withStreamedPuts() {
            return new Transfer(partSize, wholePutMax, singleCopyMax, copyPartSize, partsInFlight, sharedBuffers,
                    MAX_PUT, lookUpBeforeShortPut);
        }

        /**
         * For a store that refuses a PutObject with {@code If-None-Match: *} where the key exists: a blob sent whole
         * from memory goes as that one request, and a refusal is checked afterwards.
         */
        Transfer trustingConditionalWrites() {
            return new Transfer(partSize, wholePutMax, singleCopyMax, copyPartSize, partsInFlight, sharedBuffers,
                    streamedPutMax, false);
        }
    }

    private final S3Client s3;
    private final BucketLayout layout;
    private final Transfer transfer;
    private final Clock clock;
    private final Semaphore sharedBuffers;

    /**
     * {@code sendAheadMemory}: heap the uploads share for parts beyond each one's first, in whole parts.
     * {@code overTls}: S3 is reached over https, where the SDK sends a body unsigned, reading it once, so that a
     * blob of declared digest and size can stream as one PutObject. {@code conditionalWritesHonoured}: the store
     * refuses a PutObject with {@code If-None-Match: *} where the key exists, so short blobs need no look-up first.
     */
    public S3BlobStore(S3Client s3, String bucket, String prefix, int partSize, int partsInFlight,
                       long sendAheadMemory, boolean overTls, boolean conditionalWritesHonoured) {
        this(s3, new BucketLayout(bucket, prefix),
                transfer(partSize, partsInFlight, sendAheadMemory, overTls, conditionalWritesHonoured),
                Clock.systemUTC());
    }

    private static Transfer transfer(int partSize, int partsInFlight, long sendAheadMemory, boolean overTls,
                                     boolean conditionalWritesHonoured) {
        Transfer transfer = Transfer.of(partSize, partsInFlight,
                (int) Math.min(sendAheadMemory / partSize, Integer.MAX_VALUE));
        transfer = overTls ? transfer.withStreamedPuts() : transfer;
        return conditionalWritesHonoured ? transfer.trustingConditionalWrites() : transfer;
    }

    S3BlobStore(S3Client s3, BucketLayout layout, Transfer transfer, Clock clock) {
        this.s3 = s3;
        this.layout = layout;
        this.transfer = transfer;
        this.clock = clock;
        this.sharedBuffers = new Semaphore(transfer.sharedBuffers());
    }

    /** Buffers of the shared budget no upload holds now. */
    int freeSharedBuffers() {
        return sharedBuffers.availablePermits();
    }

    @Override
    public StoredBlob put(InputStream content, UploadPolicy policy) throws IOException {
        MeasuredInput in = new MeasuredInput(content, policy);
        if (streamsWhole(policy)) {
            return streamTo(policy.expected().iterator().next(), in, policy.declaredSize());
        }
        PartBuffer part = PartBuffer.first(transfer.partSize(), policy);
        part.fill(in);
        if (!part.full() && part.length() <= transfer.wholePutMax()) {
            StoredBlob blob = in.finish();
            putWhole(blob, part);
            return blob;
        }
        if (policy.expected().size() == 1) {
            return uploadTo(policy.expected().iterator().next(), in, part);
        }
        return stage(in, part);
    }

    /**
     * Whether the upload goes as one streamed PutObject: a blob of one declared digest whose exact size is more than
     * one part, up to S3's largest PutObject, over https. It is known before the first byte is read, so nothing of
     * it is held in memory: a whole part held through a long upload outlives young collections and fills the old
     * generation of a small heap.
     */
    private boolean streamsWhole(UploadPolicy policy) {
        return policy.exact() && policy.expected().size() == 1 && streamsWhole(policy.declaredSize());
    }

    private boolean streamsWhole(long exactSize) {
        return exactSize > transfer.wholePutMax() && exactSize <= transfer.streamedPutMax();
    }

    /** None of an upload that streams as one PutObject ({@link #streamTo}); otherwise its first part. */
    @Override
    public long heldOfUpload(long declaredSize, boolean oneDigest) {
        return oneDigest && streamsWhole(declaredSize) ? 0 : BlobStore.bufferUpTo(declaredSize, transfer.partSize());
    }

    /**
     * A blob whose digest the client declared streams straight to its digest key, as a multipart upload completed
     * only once the bytes proved to hash to it and aborted otherwise: nothing is visible there before, and no copy
     * is needed. Bytes already stored are read through and checked, and not sent again.
     */
    private StoredBlob uploadTo(Digest declared, MeasuredInput in, PartBuffer part) throws IOException {
        String key = layout.blobKey(declared);
        if (exists(key)) {
            return readThrough(in);
        }
        String uploadId = startUpload(key);
        StoredBlob blob;
        List<CompletedPart> parts;
        try {
            parts = uploadParts(key, uploadId, in, part);
            blob = in.finish();
        } catch (Throwable e) {
            abort(key, uploadId, e);
            throw e;
        }
        try {
            complete(key, uploadId, parts, true);
        } catch (IOException e) {
            abort(key, uploadId, null);
            ifAlreadyStored(key, e);
        }
        return blob;
    }

    /**
     * A blob whose digest and size the client declared streams to its digest key as one PutObject, its last bytes
     * sent only once they proved to hash to it ({@link StreamedPutBody}): each byte is hashed once and written
     * once, with nothing held back and no multipart upload to complete.
     */
    private StoredBlob streamTo(Digest declared, MeasuredInput in, long size) throws IOException {
        String key = layout.blobKey(declared);
        if (exists(key)) {
            return readThrough(in);
        }
        StreamedPutBody body = new StreamedPutBody(in, size);
        try {
            s3.putObject(b -> b.bucket(layout.bucket()).key(key).ifNoneMatch("*").contentLength(size)
                    .checksumSHA256(declared.base64()), RequestBody.fromContentProvider(body::open, size,
                    "application/octet-stream"));
        } catch (SdkException e) {
            body.throwFailure();
            ifAlreadyStored(key, new StoreUnavailable("the s3 blob store failed to store " + key, e));
            // stored meanwhile by another upload: what the request did not take is read and checked all the same
            return body.checked() != null ? body.checked() : readThrough(in);
        }
        return body.checked();
    }

    /** Reads the rest of an upload whose blob is stored already, only so that MeasuredInput hashes and checks it. */
    private static StoredBlob readThrough(MeasuredInput in) throws IOException {
        in.transferTo(OutputStream.nullOutputStream());
        return in.finish();
    }

    /**
     * The whole blob is in memory and already checked: S3 makes a PutObject visible complete or not at all. Where
     * the store may ignore If-None-Match, a stored blob is looked up first rather than written again.
     */
    private void putWhole(StoredBlob blob, PartBuffer bytes) throws IOException {
        String key = layout.blobKey(blob.digest());
        if (transfer.lookUpBeforeShortPut() && exists(key)) {
            return;
        }
        try {
            // S3 checks the bytes it received against the digest; If-None-Match keeps a concurrent copy unchanged
            call("store " + key, () -> s3.putObject(b -> b.bucket(layout.bucket()).key(key).ifNoneMatch("*")
                    .checksumSHA256(blob.digest().base64()), bytes.body()));
        } catch (IOException e) {
            ifAlreadyStored(key, e);
        }
    }

    /** Streams a blob of more than one part into a multipart upload at a staging key, then publishes it. */
    private StoredBlob stage(MeasuredInput in, PartBuffer part) throws IOException {
        String staging = layout.newStagingKey();
        String uploadId = startUpload(staging);
        StoredBlob blob;
        boolean published;
        try {
            List<CompletedPart> parts = uploadParts(staging, uploadId, in, part);
            blob = in.finish();
            published = exists(layout.blobKey(blob.digest()));
            if (!published) {
                complete(staging, uploadId, parts, false);
            }
        } catch (Throwable e) {
            abort(staging, uploadId, e);
            throw e;
        }
        if (published) {
            // these bytes are stored already: the staged copy is not needed
            abort(staging, uploadId, null);
            return blob;
        }
        try {
            publish(staging, blob);
        } finally {
            deleteStaging(staging);
        }
        return blob;
    }

    private String startUpload(String key) throws IOException {
        return call("start an upload", () -> s3.createMultipartUpload(b -> b.bucket(layout.bucket()).key(key)
                .checksumAlgorithm(ChecksumAlgorithm.SHA256))).uploadId();
    }

    /**
     * Sends the part already read and every part after it, each once it is read and hashed, while the next is read.
     * Returns only once no part is on its way any more, whether they all arrived or the upload failed.
     */
    private List<CompletedPart> uploadParts(String key, String uploadId, MeasuredInput in, PartBuffer first)
            throws IOException {
        try (PartsInFlight inFlight = new PartsInFlight(transfer.partSize(), transfer.partsInFlight(), sharedBuffers,
                (part, number) -> uploadPart(key, uploadId, number, part))) {
            PartBuffer part = first;
            boolean more = part.full();
            inFlight.send(part);
            while (more) {
                part = inFlight.nextBuffer();
                if (!part.fill(in)) {
                    break;
                }
                more = part.full();
                inFlight.send(part);
            }
            return inFlight.completed();
        }
    }

    private CompletedPart uploadPart(String key, String uploadId, int number, PartBuffer part)
            throws IOException {
        String checksum = part.sha256();
        String etag = call("upload part " + number, () -> s3.uploadPart(b -> b.bucket(layout.bucket()).key(key)
                .uploadId(uploadId).partNumber(number).checksumSHA256(checksum), part.body())).eTag();
        return CompletedPart.builder().partNumber(number).eTag(etag).checksumSHA256(checksum).build();
    }

    /** {@code onlyIfAbsent}: at a digest key, where an existing blob is never rewritten (If-None-Match: *). */
    private void complete(String key, String uploadId, List<CompletedPart> parts, boolean onlyIfAbsent)
            throws IOException {
        call("complete " + key, () -> s3.completeMultipartUpload(b -> b.bucket(layout.bucket()).key(key)
                .uploadId(uploadId).multipartUpload(u -> u.parts(parts)).ifNoneMatch(onlyIfAbsent ? "*" : null)));
    }

    /** Copies the staged object to its digest key, server-side; an existing object there is left as it is. */
    private void publish(String staging, StoredBlob blob) throws IOException {
        String key = layout.blobKey(blob.digest());
        try {
            if (blob.size() > transfer.singleCopyMax()) {
                copyInParts(staging, key, blob.size());
            } else {
                call("publish " + key, () -> s3.copyObject(b -> b.sourceBucket(layout.bucket()).sourceKey(staging)
                        .destinationBucket(layout.bucket()).destinationKey(key).ifNoneMatch("*")));
            }
        } catch (IOException e) {
            ifAlreadyStored(key, e);
        }
    }

    /** Copies an object too large for CopyObject as a multipart upload of server-side part copies. */
    private void copyInParts(String staging, String key, long size) throws IOException {
        String uploadId = call("start a copy", () -> s3.createMultipartUpload(b -> b.bucket(layout.bucket())
                .key(key))).uploadId();
        try {
            List<CompletedPart> parts = new ArrayList<>();
            for (long first = 0; first < size; first += transfer.copyPartSize()) {
                int number = parts.size() + 1;
                String range = "bytes=" + first + "-" + (Math.min(first + transfer.copyPartSize(), size) - 1);
                String etag = call("copy part " + number, () -> s3.uploadPartCopy(b -> b
                        .sourceBucket(layout.bucket()).sourceKey(staging).destinationBucket(layout.bucket())
                        .destinationKey(key).uploadId(uploadId).partNumber(number).copySourceRange(range)))
                        .copyPartResult().eTag();
                parts.add(CompletedPart.builder().partNumber(number).eTag(etag).build());
            }
            call("publish " + key, () -> s3.completeMultipartUpload(b -> b.bucket(layout.bucket()).key(key)
                    .uploadId(uploadId).multipartUpload(u -> u.parts(parts)).ifNoneMatch("*")));
        } catch (Throwable e) {
            abort(key, uploadId, e);
            throw e;
        }
    }

    /**
     * A conditional write refused because the key exists (412), or raced another one (409), is fine as long as the
     * blob is there now: content-addressed, it holds the same bytes.
     */
    private void ifAlreadyStored(String key, IOException e) throws IOException {
        if (!(e.getCause() instanceof S3Exception refused)
                || refused.statusCode() != PRECONDITION_FAILED && refused.statusCode() != CONFLICT
                || !exists(key)) {
            throw e;
        }
    }

    /**
     * After any failure, an Error too. Best effort: what is left behind here is swept later by
     * {@link #removeAbandonedUploads}. An interrupted upload still aborts what it started: the SDK sends nothing from
     * an interrupted thread, so the interrupt waits.
     */
    private void abort(String key, String uploadId, Throwable failure) {
        boolean interrupted = Thread.interrupted();
        try {
            call("abort the upload to " + key, () -> s3.abortMultipartUpload(b -> b.bucket(layout.bucket())
                    .key(key).uploadId(uploadId)));
        } catch (IOException e) {
            if (failure != null) {
                failure.addSuppressed(e);
            } else {
                LOG.warnf(e, "could not abort the upload to %s; the sweep of abandoned uploads will", key);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void deleteStaging(String staging) {
        try {
            call("delete " + staging, () -> s3.deleteObject(b -> b.bucket(layout.bucket()).key(staging)));
        } catch (IOException e) {
            LOG.warnf(e, "could not delete the staging object %s; the sweep of abandoned uploads will", staging);
        }
    }

    @Override
    public OptionalLong size(Digest digest) throws IOException {
        return sizeOf(layout.blobKey(digest));
    }

    private boolean exists(String key) throws IOException {
        return sizeOf(key).isPresent();
    }

    private OptionalLong sizeOf(String key) throws IOException {
        try {
            return OptionalLong.of(s3.headObject(b -> b.bucket(layout.bucket()).key(key)).contentLength());
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                return OptionalLong.empty();
            }
            throw new IOException("the s3 blob store failed to look up " + key, e);
        } catch (SdkException e) {
            throw new IOException("the s3 blob store failed to look up " + key, e);
        }
    }

    @Override
    public InputStream open(Digest digest, long offset, long length) throws IOException {
        if (length == 0) {
            // no Range header can ask for nothing; still tell a missing blob from an empty read
            if (size(digest).isEmpty()) {
                throw new NoSuchFileException(digest.toString());
            }
            return InputStream.nullInputStream();
        }
        String key = layout.blobKey(digest);
        String range = "bytes=" + offset + "-" + (offset + length - 1);
        try {
            return new S3ObjectInput(s3.getObject(b -> b.bucket(layout.bucket()).key(key).range(range)), length);
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                throw new NoSuchFileException(digest.toString());
            }
            throw new IOException("the s3 blob store failed to read " + key, e);
        } catch (SdkException e) {
            throw new IOException("the s3 blob store failed to read " + key, e);
        }
    }

    /**
     * Aborts multipart uploads, staged or copying, with no new part for {@code idle}, and deletes staging objects
     * older than that (left by a crash between completing an upload and publishing it). An upload counts from its
     * newest part, not its start, so that a slow large upload is not cut off while it still streams.
     */
    @Override
    public int removeAbandonedUploads(Duration idle) throws IOException {
        Instant cutoff = clock.instant().minus(idle);
        int removed = 0;
        for (String prefix : List.of(layout.uploads(), layout.blobs())) {
            for (MultipartUpload upload : call("list uploads", () -> s3.listMultipartUploadsPaginator(b -> b
                    .bucket(layout.bucket()).prefix(prefix)).uploads().stream().toList())) {
                if (idleSince(upload, cutoff) && abortAbandoned(upload)) {
                    removed++;
                }
            }
        }
        for (S3Object staged : call("list staging objects", () -> s3.listObjectsV2Paginator(b -> b
                .bucket(layout.bucket()).prefix(layout.uploads())).contents().stream().toList())) {
            if (staged.lastModified().isBefore(cutoff)) {
                call("delete " + staged.key(), () -> s3.deleteObject(b -> b.bucket(layout.bucket())
                        .key(staged.key())));
                removed++;
            }
        }
        return removed;
    }

    /**
     * Whether an upload has not moved since the cutoff: it started before it, and so did its newest part. A
     * server that does not say when an upload started gets the benefit of the doubt.
     */
    private boolean idleSince(MultipartUpload upload, Instant cutoff) throws IOException {
        if (upload.initiated() == null || !upload.initiated().isBefore(cutoff)) {
            return false;
        }
        try {
            return s3.listPartsPaginator(b -> b.bucket(layout.bucket()).key(upload.key())
                            .uploadId(upload.uploadId())).parts().stream()
                    .noneMatch(part -> part.lastModified() != null && !part.lastModified().isBefore(cutoff));
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                return false; // completed or aborted meanwhile, perhaps by another instance's sweep
            }
            throw new IOException("the s3 blob store failed to list the parts of " + upload.key(), e);
        } catch (SdkException e) {
            throw new IOException("the s3 blob store failed to list the parts of " + upload.key(), e);
        }
    }

    /** Aborts an abandoned upload; false when it is gone already, perhaps by another instance's sweep. */
    private boolean abortAbandoned(MultipartUpload upload) throws IOException {
        try {
            s3.abortMultipartUpload(b -> b.bucket(layout.bucket()).key(upload.key()).uploadId(upload.uploadId()));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                return false;
            }
            throw new IOException("the s3 blob store failed to abort the upload to " + upload.key(), e);
        } catch (SdkException e) {
            throw new IOException("the s3 blob store failed to abort the upload to " + upload.key(), e);
        }
    }

    /** Runs one S3 request of an upload, turning the SDK's unchecked failures into the store's failure to write. */
    private static <T> T call(String what, Supplier<T> request) throws IOException {
        try {
            return request.get();
        } catch (SdkException e) {
            throw new StoreUnavailable("the s3 blob store failed to " + what, e);
        }
    }

    @Override
    public void close() {
        s3.close();
    }
}
