package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.support.S3ProxyServer;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.evidencestore.support.S3ProxyServer.BUCKET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over https, a blob of declared digest and size streams to its digest key as one PutObject whose last bytes go
 * only once the blob hashed to the digest: every way an upload can be wrong stops the request short, and S3Proxy
 * (which, unlike S3, does not check the request's SHA-256 itself) stores nothing.
 */
class S3StreamedPutTest {

    private static final String PREFIX = "streamed/";
    /** Small parts, so that a blob of 1 MiB is past the first and streams; S3's 5 MiB minimum is for parts only. */
    private static final int PART = 256 * 1024;
    private static final long LIMIT = 10L * 1024 * 1024;
    private static final int SIZE = 1024 * 1024 + 7;

    private static S3ProxyServer server;
    private static final List<String> REQUESTS = new CopyOnWriteArrayList<>();
    private static final List<String> SENT = new CopyOnWriteArrayList<>();
    private static S3Client s3;
    private static S3BlobStore store;

    @BeforeAll
    static void startS3OverHttps() {
        server = S3ProxyServer.freshOverHttps("streamed");
        s3 = S3ProxyServer.clientBuilder(server.endpoint())
                .httpClientBuilder(ApacheHttpClient.builder().socketFactory(new S3TlsSockets(server.trustingContext())))
                .overrideConfiguration(c -> c.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                        REQUESTS.add(context.request().getClass().getSimpleName());
                    }

                    @Override
                    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
                        SdkHttpRequest sent = context.httpRequest();
                        SENT.add(sent.method() + " " + sent.firstMatchingHeader("Content-Length").orElse("-") + " "
                                + sent.firstMatchingHeader("x-amz-checksum-sha256").orElse("-") + " "
                                + sent.firstMatchingHeader("x-amz-content-sha256").orElse("-"));
                    }
                }))
                .build();
        store = new S3BlobStore(s3, new BucketLayout(BUCKET, PREFIX), S3BlobStore.Transfer.of(PART, 2, 2)
                .withStreamedPuts(), Clock.systemUTC());
    }

    @AfterAll
    static void stopS3() {
        s3.close();
        server.close();
    }

    @Test
    void aDeclaredBlobStreamsAsOnePutObjectAndIsNotSentAgain() throws IOException {
        byte[] bytes = random(SIZE, 1);
        Digest digest = digestOf(bytes);
        REQUESTS.clear();
        assertEquals(new StoredBlob(digest, SIZE), store.put(new ByteArrayInputStream(bytes), declared(digest, SIZE)));
        assertEquals(List.of("HeadObjectRequest", "PutObjectRequest"), REQUESTS);
        try (InputStream stored = store.open(digest)) {
            assertArrayEquals(bytes, stored.readAllBytes());
        }

        REQUESTS.clear();
        assertEquals(new StoredBlob(digest, SIZE), store.put(new ByteArrayInputStream(bytes), declared(digest, SIZE)));
        assertEquals(List.of("HeadObjectRequest"), REQUESTS, "found stored: read and checked, not sent again");
    }

    @Test
    void bytesThatHashToAnotherDigestAreStoredNowhere() throws IOException {
        byte[] bytes = random(SIZE, 2);
        Digest claimed = digestOf(random(SIZE, 3));
        DigestMismatch refused = assertThrows(DigestMismatch.class,
                () -> store.put(new ByteArrayInputStream(bytes), declared(claimed, SIZE)));
        assertEquals(digestOf(bytes), refused.computed());
        assertStoredNowhere(claimed, digestOf(bytes));
    }

    @Test
    void anUploadLongerOrShorterThanDeclaredIsStoredNowhere() throws IOException {
        byte[] bytes = random(SIZE, 4);
        Digest digest = digestOf(bytes);
        IOException longer = assertThrows(IOException.class,
                () -> store.put(new ByteArrayInputStream(bytes), declared(digest, SIZE - 1)));
        assertEquals("the upload is longer than its declared " + (SIZE - 1) + " bytes", longer.getMessage());
        IOException shorter = assertThrows(IOException.class,
                () -> store.put(new ByteArrayInputStream(bytes), declared(digest, SIZE + 5)));
        assertEquals("the upload ended after " + SIZE + " of its declared " + (SIZE + 5) + " bytes",
                shorter.getMessage());
        assertStoredNowhere(digest);
    }

    @Test
    void aClientThatFailsMidStreamGetsItsOwnFailureBackAndNothingIsStored() throws IOException {
        byte[] bytes = random(SIZE, 5);
        Digest digest = digestOf(bytes);
        IOException gone = new IOException("the client hung up");
        InputStream failing = new FilterInputStream(new ByteArrayInputStream(bytes)) {
            private int read;

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (read > SIZE / 2) {
                    throw gone;
                }
                int n = super.read(buffer, offset, length);
                read += Math.max(n, 0);
                return n;
            }
        };
        assertSame(gone, assertThrows(IOException.class, () -> store.put(failing, declared(digest, SIZE))));
        assertStoredNowhere(digest);
    }

    @Test
    void anUploadPastTheLimitIsStoredNowhere() throws IOException {
        byte[] bytes = random(SIZE, 6);
        Digest digest = digestOf(bytes);
        assertThrows(BlobTooLarge.class, () -> store.put(new ByteArrayInputStream(bytes),
                UploadPolicy.framed(Set.of(digest), SIZE - 100, SIZE)));
        assertStoredNowhere(digest);
    }

    /**
     * Nothing of the upload is read before its PutObject goes out, so nothing of it is held in memory: a whole part
     * held through a long upload would outlive young collections and fill the old generation of a small heap.
     */
    @Test
    void noByteIsReadBeforeThePutObjectGoesOut() throws IOException {
        byte[] bytes = random(SIZE, 8);
        Digest digest = digestOf(bytes);
        SENT.clear();
        long[] readBeforeThePut = {-1};
        InputStream watched = new FilterInputStream(new ByteArrayInputStream(bytes)) {
            private long read;

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (readBeforeThePut[0] < 0 && SENT.stream().anyMatch(request -> request.startsWith("PUT"))) {
                    readBeforeThePut[0] = read;
                }
                int n = super.read(buffer, offset, length);
                read += Math.max(n, 0);
                return n;
            }
        };
        assertEquals(new StoredBlob(digest, SIZE), store.put(watched, declared(digest, SIZE)));
        assertEquals(0, readBeforeThePut[0]);
    }

    /** What admission counts of an upload's body before it is read: none of one that will stream, else a part. */
    @Test
    void anUploadThatStreamsHoldsNoPartAndAnyOtherAtMostOne() {
        assertEquals(0, store.heldOfUpload(SIZE, true));
        assertEquals(0, store.heldOfUpload(S3BlobStore.Transfer.MAX_PUT, true));
        assertEquals(PART, store.heldOfUpload(S3BlobStore.Transfer.MAX_PUT + 1, true), "past S3's largest PutObject");
        assertEquals(PART, store.heldOfUpload(SIZE, false), "no digest named, or one that may disagree");
        assertEquals(PART, store.heldOfUpload(-1, true), "no length: not framed, so not streamed");
        assertEquals(PART - 1, store.heldOfUpload(PART - 1, true), "one part at most: sent whole from memory");
        assertEquals(10, store.heldOfUpload(10, true));
        S3BlobStore plainHttp = new S3BlobStore(s3, new BucketLayout(BUCKET, PREFIX),
                S3BlobStore.Transfer.of(PART, 2, 2), Clock.systemUTC());
        assertEquals(PART, plainHttp.heldOfUpload(SIZE, true), "over plain http nothing streams");
    }

    /** Sent unsigned, so the SDK reads the body once, and with the digest, which S3 (and S3Proxy 4) checks. */
    @Test
    void thePutCarriesTheDeclaredDigestAndAnUnsignedPayload() throws IOException {
        byte[] bytes = random(SIZE, 7);
        Digest digest = digestOf(bytes);
        SENT.clear();
        store.put(new ByteArrayInputStream(bytes), declared(digest, SIZE));
        assertEquals(List.of("PUT " + SIZE + " " + digest.base64() + " UNSIGNED-PAYLOAD"), SENT.stream()
                .filter(request -> request.startsWith("PUT")).toList());
    }

    private static void assertStoredNowhere(Digest... digests) throws IOException {
        for (Digest digest : digests) {
            assertTrue(store.size(digest).isEmpty(), () -> digest + " was stored");
        }
        assertTrue(s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(PREFIX)).uploads().isEmpty());
    }

    private static UploadPolicy declared(Digest digest, long size) {
        return UploadPolicy.framed(Set.of(digest), LIMIT, size);
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    private static Digest digestOf(byte[] bytes) {
        return Digest.of(DigestUtils.sha256(bytes));
    }
}
