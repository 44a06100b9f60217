package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.support.S3ProxyServer;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.evidencestore.support.S3ProxyServer.BUCKET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The contract on a real S3 API (S3Proxy over files), and what only the s3 backend does: blobs of several parts
 * staged in a multipart upload and copied to their digest key, aborted on every failure, and the sweep of uploads
 * that stopped moving. S3Proxy enforces S3's 5 MiB minimum part, so parts here are that size, and the contract's
 * blobs (all smaller) take the one-request path; {@link EveryUploadStaged} runs the contract again with every
 * upload staged and copied part by part.
 */
class S3BlobStoreTest extends BlobStoreContract {

    /** S3's smallest part but the last. */
    static final int PART = 5 * 1024 * 1024;
    static final String PREFIX = "blobs/";
    private static final BucketLayout LAYOUT = new BucketLayout(BUCKET, PREFIX);
    /** Each upload sends up to two parts at once, from a budget of two buffers beyond their first. */
    static final int PARTS_IN_FLIGHT = 2;
    static final int SHARED_BUFFERS = 2;
    static final S3BlobStore.Transfer TRANSFER = S3BlobStore.Transfer.of(PART, PARTS_IN_FLIGHT, SHARED_BUFFERS);

    private static S3ProxyServer server;
    private static S3Client s3;

    private final S3BlobStore store = storeAt(Clock.systemUTC());

    @BeforeAll
    static void startS3() {
        server = S3ProxyServer.fresh("storage");
        s3 = server.client();
    }

    @AfterAll
    static void stopS3() {
        s3.close();
        server.close();
    }

    private static S3BlobStore storeAt(Clock clock) {
        return storeOn(s3, TRANSFER, clock);
    }

    /** A store under the test's prefix that sends through {@code client}. */
    private static S3BlobStore storeOn(S3Client client, S3BlobStore.Transfer transfer) {
        return storeOn(client, transfer, Clock.systemUTC());
    }

    private static S3BlobStore storeOn(S3Client client, S3BlobStore.Transfer transfer, Clock clock) {
        return new S3BlobStore(client, LAYOUT, transfer, clock);
    }

    @Override
    protected BlobStore store() {
        return store;
    }

    @Override
    protected void assertNoLeftovers() {
        assertNothingStaged(PREFIX);
    }

    /** No multipart upload under the prefix, and no staging object. */
    static void assertNothingStaged(String prefix) {
        assertNothingStaged(s3, prefix);
    }

    static void assertNothingStaged(S3Client s3, String prefix) {
        List<MultipartUpload> uploads = s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(prefix)).uploads();
        assertEquals(List.of(), uploads.stream().map(MultipartUpload::key).toList(), "multipart uploads left");
        List<S3Object> staged = s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(prefix + "uploads/")).contents();
        assertEquals(List.of(), staged.stream().map(S3Object::key).toList(), "staging objects left");
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(System.nanoTime()).nextBytes(bytes);
        return bytes;
    }

    private static Digest digestOf(byte[] bytes) {
        return Digest.parse("sha256:" + DigestUtils.sha256Hex(bytes));
    }

    private static InputStream breakingAfter(byte[] head) {
        return new SequenceInputStream(new ByteArrayInputStream(head), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("client went away");
            }
        });
    }

    @Test
    void storesEachBlobUnderItsDigestKey() throws IOException {
        StoredBlob blob = store.put(new ByteArrayInputStream("abc".getBytes()), UploadPolicy.unchecked(10));
        String key = PREFIX + "sha256/ba/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        assertEquals(key, LAYOUT.blobKey(blob.digest()));
        assertEquals(3, s3.headObject(b -> b.bucket(BUCKET).key(key)).contentLength());
    }

    @Test
    void aBlobOfSeveralPartsIsPublishedOnlyWhenComplete() throws IOException {
        byte[] bytes = random(2 * PART + 321_123);
        Digest digest = digestOf(bytes);
        StoredBlob blob = store.put(new ByteArrayInputStream(bytes), new UploadPolicy(Set.of(digest), bytes.length));
        assertEquals(new StoredBlob(digest, bytes.length), blob);
        assertEquals(OptionalLong.of(bytes.length), store.size(digest));
        assertNothingStaged(PREFIX);

        long[][] ranges = {{0, bytes.length}, {PART - 3, 7}, {0, PART + 1}, {2L * PART - 1, 2}, {bytes.length - 5, 5}};
        for (long[] r : ranges) {
            try (InputStream in = store.open(digest, r[0], r[1])) {
                assertArrayEquals(Arrays.copyOfRange(bytes, (int) r[0], (int) (r[0] + r[1])), in.readAllBytes(),
                        "range " + r[0] + "+" + r[1]);
            }
        }

        // the same bytes again: stored already, so the staged copy is dropped and the blob left as it is
        assertEquals(blob, store.put(new ByteArrayInputStream(bytes), UploadPolicy.unchecked(bytes.length)));
        assertNothingStaged(PREFIX);
    }

    @Test
    void asksS3ToCheckEachPartAndEachSmallBlobAgainstItsSha256() throws IOException {
        List<String> checksums = new CopyOnWriteArrayList<>();
        ExecutionInterceptor recorder = new ExecutionInterceptor() {
            @Override
            public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                if (context.httpRequest().method() == SdkHttpMethod.PUT) {
                    checksums.add(context.httpRequest().firstMatchingHeader("x-amz-checksum-sha256").orElse("none"));
                }
            }
        };
        byte[] small = random(1000);
        byte[] large = random(PART + 10);
        try (S3Client recording = clientWith(recorder)) {
            S3BlobStore recorded = storeOn(recording, TRANSFER);
            recorded.put(new ByteArrayInputStream(small), UploadPolicy.unchecked(LIMIT));
            recorded.put(new ByteArrayInputStream(large), UploadPolicy.unchecked(LIMIT * 100));
        }
        assertEquals(4, checksums.size(), "the small blob, two parts and the server-side copy: " + checksums);
        assertEquals(sha256Base64(small), checksums.get(0), "the small blob");
        assertEquals(Set.of(sha256Base64(Arrays.copyOf(large, PART)),
                        sha256Base64(Arrays.copyOfRange(large, PART, large.length))),
                Set.copyOf(checksums.subList(1, 3)), "the two parts, sent at once and so in either order");
        assertEquals("none", checksums.get(3), "the server-side copy: S3 checks nothing it copies itself");
    }

    /** A client of the test's S3Proxy with these interceptors. */
    private static S3Client clientWith(ExecutionInterceptor... interceptors) {
        return S3ProxyServer.clientBuilder(server.endpoint()).overrideConfiguration(c -> {
            for (ExecutionInterceptor interceptor : interceptors) {
                c.addExecutionInterceptor(interceptor);
            }
        }).build();
    }

    /** Records the HTTP status of each answer into {@code statuses}, in the order received. */
    private static ExecutionInterceptor statusesInto(List<Integer> statuses) {
        return new ExecutionInterceptor() {
            @Override
            public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
                statuses.add(context.httpResponse().statusCode());
            }
        };
    }

    /** Records each request's type and key (staging keys shortened) into {@code requests}, in the order made. */
    private static ExecutionInterceptor recordingInto(List<String> requests) {
        return new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                String key = context.request().getValueForField("Key", String.class).orElse("");
                requests.add(context.request().getClass().getSimpleName() + " "
                        + key.replaceFirst("uploads/.*", "uploads/…"));
            }
        };
    }

    /**
     * The look-up before a short blob's PUT keeps a stored copy from being written again where the store may ignore
     * the PUT's If-None-Match, as S3Proxy did before version 4: without it the second PUT below replaced the object.
     */
    @Test
    void aShortBlobAlreadyStoredIsNotWrittenAgain() throws IOException {
        List<String> requests = new CopyOnWriteArrayList<>();
        byte[] bytes = random(10 * 1024);
        Digest digest = digestOf(bytes);
        String key = LAYOUT.blobKey(digest);
        try (S3Client recording = clientWith(recordingInto(requests))) {
            S3BlobStore recorded = storeOn(recording, TRANSFER);
            UploadPolicy declared = new UploadPolicy(Set.of(digest), LIMIT);
            assertEquals(new StoredBlob(digest, bytes.length), recorded.put(new ByteArrayInputStream(bytes), declared));
            assertEquals(List.of("HeadObjectRequest " + key, "PutObjectRequest " + key), requests, "stored once");

            requests.clear();
            assertEquals(new StoredBlob(digest, bytes.length), recorded.put(new ByteArrayInputStream(bytes), declared));
            assertEquals(List.of("HeadObjectRequest " + key), requests, "found stored, not sent again");
        }
        assertArrayEquals(bytes, s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray());
    }

    /**
     * Where the store honours If-None-Match (S3Proxy 4 does), a short blob goes as one PUT; a stored one is refused
     * (412) and only then looked up, and the object stays as it was.
     */
    @Test
    void whereConditionalWritesAreHonouredAShortBlobIsOnePut() throws IOException {
        List<String> requests = new CopyOnWriteArrayList<>();
        List<Integer> statuses = new CopyOnWriteArrayList<>();
        byte[] bytes = random(10 * 1024);
        Digest digest = digestOf(bytes);
        String key = LAYOUT.blobKey(digest);
        try (S3Client recording = clientWith(recordingInto(requests), statusesInto(statuses))) {
            S3BlobStore trusting = storeOn(recording, TRANSFER.trustingConditionalWrites());
            UploadPolicy declared = new UploadPolicy(Set.of(digest), LIMIT);
            assertEquals(new StoredBlob(digest, bytes.length), trusting.put(new ByteArrayInputStream(bytes), declared));
            assertEquals(List.of("PutObjectRequest " + key), requests, "one request");
            assertEquals(List.of(200), statuses);

            requests.clear();
            statuses.clear();
            assertEquals(new StoredBlob(digest, bytes.length), trusting.put(new ByteArrayInputStream(bytes), declared));
            assertEquals(List.of("PutObjectRequest " + key, "HeadObjectRequest " + key), requests,
                    "refused, then found stored");
            assertEquals(List.of(412, 200), statuses, "the PUT refused, not written again");
        }
        assertArrayEquals(bytes, s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray());
    }

    @Test
    void aDeclaredDigestStreamsStraightToItsKeyAndAnUnknownOneIsStagedAndCopied() throws IOException {
        List<String> requests = new CopyOnWriteArrayList<>();
        ExecutionInterceptor recorder = recordingInto(requests);
        byte[] declared = random(PART + 10);
        byte[] unknown = random(PART + 20);
        String declaredKey = LAYOUT.blobKey(digestOf(declared));
        String unknownKey = LAYOUT.blobKey(digestOf(unknown));
        try (S3Client recording = clientWith(recorder)) {
            S3BlobStore recorded = storeOn(recording, TRANSFER);
            recorded.put(new ByteArrayInputStream(declared), new UploadPolicy(Set.of(digestOf(declared)), LIMIT * 100));
            assertEquals(List.of("HeadObjectRequest " + declaredKey, "CreateMultipartUploadRequest " + declaredKey,
                    "UploadPartRequest " + declaredKey, "UploadPartRequest " + declaredKey,
                    "CompleteMultipartUploadRequest " + declaredKey), requests, "every byte written once");

            requests.clear();
            recorded.put(new ByteArrayInputStream(declared), new UploadPolicy(Set.of(digestOf(declared)), LIMIT * 100));
            assertEquals(List.of("HeadObjectRequest " + declaredKey), requests, "stored already: read and checked");

            requests.clear();
            recorded.put(new ByteArrayInputStream(unknown), UploadPolicy.unchecked(LIMIT * 100));
            assertEquals(List.of("CopyObjectRequest " + unknownKey), requests.stream()
                    .filter(request -> request.startsWith("Copy")).toList(), "known only at the end: staged, copied");
        }
        assertNothingStaged(PREFIX);
    }

    private static String sha256Base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(DigestUtils.sha256(bytes));
    }

    @Test
    void aReadClosedEarlyLeavesTheStoreUsable() throws IOException {
        byte[] bytes = random(300_000);
        Digest digest = store.put(new ByteArrayInputStream(bytes), UploadPolicy.unchecked(bytes.length)).digest();
        for (int i = 0; i < 60; i++) {
            try (InputStream in = store.open(digest)) {
                assertEquals(bytes[0] & 0xff, in.read());
            }
        }
        try (InputStream in = store.open(digest, 1000, 10)) {
            assertArrayEquals(Arrays.copyOfRange(bytes, 1000, 1010), in.readAllBytes());
        }
    }

    @Test
    void abortsTheMultipartUploadWhenTheBytesDisagreeWithTheDeclaredDigest() {
        byte[] bytes = random(PART + 1000);
        Digest wrong = digestOf("something else".getBytes());
        DigestMismatch mismatch = assertThrows(DigestMismatch.class, () -> store.put(new ByteArrayInputStream(bytes),
                new UploadPolicy(Set.of(wrong), LIMIT * 100)));
        assertEquals(wrong, mismatch.declared());
        assertNothingPublished(bytes);
        try {
            assertEquals(OptionalLong.empty(), store.size(wrong), "nothing at the declared digest's key either");
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void abortsTheMultipartUploadWhenTheLimitIsPassedAfterAPart() {
        byte[] bytes = random(PART + 1000);
        BlobTooLarge tooLarge = assertThrows(BlobTooLarge.class, () -> store.put(new ByteArrayInputStream(bytes),
                UploadPolicy.unchecked(PART + 10)));
        assertEquals(PART + 10, tooLarge.maxSize());
        assertNothingPublished(bytes);
    }

    @Test
    void abortsTheMultipartUploadWhenTheStreamBreaksAfterAPart() {
        byte[] head = random(PART + 1000);
        IOException broken = assertThrows(IOException.class,
                () -> store.put(breakingAfter(head), UploadPolicy.unchecked(LIMIT * 100)));
        assertEquals("client went away", broken.getMessage());
        assertNothingPublished(head);
    }

    private void assertNothingPublished(byte[] bytes) {
        try {
            assertEquals(OptionalLong.empty(), store.size(digestOf(bytes)));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertNothingStaged(PREFIX);
    }

    @Test
    void sweepsUploadsThatStoppedMovingAndNothingElse() throws IOException {
        String completed = PREFIX + "uploads/completed-but-never-published";
        s3.putObject(b -> b.bucket(BUCKET).key(completed), RequestBody.fromString("staged bytes"));
        String crashed = PREFIX + "uploads/crashed-mid-stream";
        String crashedId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(crashed)).uploadId();
        s3.uploadPart(b -> b.bucket(BUCKET).key(crashed).uploadId(crashedId).partNumber(1),
                RequestBody.fromString("the first part"));
        String copying = PREFIX + "sha256/00/crashed-mid-copy";
        s3.createMultipartUpload(b -> b.bucket(BUCKET).key(copying));
        String foreign = "other-application/uploads/not-ours";
        String foreignId = s3.createMultipartUpload(b -> b.bucket(BUCKET).key(foreign)).uploadId();
        try {
            assertEquals(0, store.removeAbandonedUploads(Duration.ofHours(1)), "nothing has been idle for an hour");

            S3BlobStore twoHoursLater = storeAt(Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC));
            assertEquals(3, twoHoursLater.removeAbandonedUploads(Duration.ofHours(1)));
            assertNothingStaged(PREFIX);
            assertEquals(List.of(foreign), s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix("other-application/"))
                    .uploads().stream().map(MultipartUpload::key).toList(), "another application's upload is not ours");
        } finally {
            s3.abortMultipartUpload(b -> b.bucket(BUCKET).key(foreign).uploadId(foreignId));
        }
    }

    /**
     * The contract with every upload, however small, staged in a multipart upload and copied to its digest key part
     * by part, at the bucket's root: the path of blobs larger than a part, and of those over CopyObject's 5 GiB.
     */
    @Nested
    class EveryUploadStaged extends BlobStoreContract {

        private final S3BlobStore staged = new S3BlobStore(s3, new BucketLayout(BUCKET, ""),
                new S3BlobStore.Transfer(PART, -1, 0, PART, PARTS_IN_FLIGHT, SHARED_BUFFERS, 0, true),
                Clock.systemUTC());

        @Override
        protected BlobStore store() {
            return staged;
        }

        @Override
        protected void assertNoLeftovers() {
            assertNothingStaged("");
        }

        @Test
        void copiesABlobToItsDigestKeyPartByPart() throws IOException {
            byte[] bytes = random(PART + 4321);
            StoredBlob blob = staged.put(new ByteArrayInputStream(bytes), UploadPolicy.unchecked(bytes.length));
            try (InputStream in = staged.open(blob.digest(), PART - 2, 4)) {
                assertArrayEquals(Arrays.copyOfRange(bytes, PART - 2, PART + 2), in.readAllBytes());
            }
            assertNothingStaged("");
        }
    }
}
