package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.support.S3ProxyServer;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.AbortMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.UploadPartRequest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.evidencestore.support.S3ProxyServer.BUCKET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The s3 backend's parts in flight, on S3Proxy: each test holds parts back in the SDK's pipeline (an execution
 * interceptor on the sending thread) to set up one exact interleaving, so that the outcome is the same on every run.
 * Every blob here has three parts, the last one short.
 */
class S3PartsInFlightTest {

    private static final int PART = S3BlobStoreTest.PART;
    private static final String PREFIX = "parts/";
    private static final long LIMIT = 10L * PART;
    /** How long a held part waits for what it waits for before the test counts it as stuck. */
    private static final long PATIENCE_SECONDS = 30;

    private static S3ProxyServer server;
    private static S3Client s3;

    private final ExecutorService uploads = Executors.newCachedThreadPool();

    @BeforeAll
    static void startS3() {
        server = S3ProxyServer.fresh("parts");
        s3 = server.client();
    }

    @AfterAll
    static void stopS3() {
        s3.close();
        server.close();
    }

    @AfterEach
    void stopUploads() {
        uploads.shutdownNow();
    }

    /** Sees each part just before it is sent and once S3 took it, and every request as it starts. */
    private abstract static class PartWatcher implements ExecutionInterceptor {

        void sending(String key, int number) {
        }

        void arrived(String key, int number) {
        }

        void requested(SdkRequest request) {
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            requested(context.request());
        }

        @Override
        public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
            if (context.request() instanceof UploadPartRequest part) {
                sending(part.key(), part.partNumber());
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            if (context.request() instanceof UploadPartRequest part) {
                arrived(part.key(), part.partNumber());
            }
        }
    }

    private static S3Client watched(PartWatcher watcher) {
        return S3ProxyServer.clientBuilder(server.endpoint())
                .overrideConfiguration(c -> c.addExecutionInterceptor(watcher)).build();
    }

    private static S3BlobStore store(S3Client client, int sharedBuffers) {
        return new S3BlobStore(client, new BucketLayout(BUCKET, PREFIX),
                S3BlobStore.Transfer.of(PART, 2, sharedBuffers), Clock.systemUTC());
    }

    /** On a sending thread: waits for {@code latch}, and fails the part if it never opens. */
    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS)) {
                throw SdkClientException.create("held part waited in vain");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw SdkClientException.create("interrupted while held");
        }
    }

    private static byte[] threeParts() {
        byte[] bytes = new byte[2 * PART + 1000];
        new Random(System.nanoTime()).nextBytes(bytes);
        return bytes;
    }

    private static Digest digestOf(byte[] bytes) {
        return Digest.parse("sha256:" + DigestUtils.sha256Hex(bytes));
    }

    private static String keyOf(byte[] bytes) {
        return new BucketLayout(BUCKET, PREFIX).blobKey(digestOf(bytes));
    }

    private static StoredBlob putDeclared(S3BlobStore store, byte[] bytes) throws IOException {
        return store.put(new ByteArrayInputStream(bytes), new UploadPolicy(Set.of(digestOf(bytes)), LIMIT));
    }

    private static void assertStored(S3BlobStore store, byte[] bytes) throws IOException {
        try (InputStream in = store.open(digestOf(bytes))) {
            assertArrayEquals(bytes, in.readAllBytes());
        }
    }

    @Test
    void partsThatArriveOutOfOrderAreCompletedInOrder() throws IOException {
        byte[] bytes = threeParts();
        CountDownLatch thirdArrived = new CountDownLatch(1);
        List<Integer> arrivals = new CopyOnWriteArrayList<>();
        List<Integer> completed = new CopyOnWriteArrayList<>();
        PartWatcher holdFirstUntilThirdArrived = new PartWatcher() {
            @Override
            void sending(String key, int number) {
                if (number == 1) {
                    await(thirdArrived);
                }
            }

            @Override
            void arrived(String key, int number) {
                arrivals.add(number);
                if (number == 3) {
                    thirdArrived.countDown();
                }
            }

            @Override
            void requested(SdkRequest request) {
                if (request instanceof CompleteMultipartUploadRequest complete) {
                    complete.multipartUpload().parts().forEach(part -> completed.add(part.partNumber()));
                }
            }
        };
        try (S3Client client = watched(holdFirstUntilThirdArrived)) {
            S3BlobStore store = store(client, 2);
            assertEquals(new StoredBlob(digestOf(bytes), bytes.length), putDeclared(store, bytes));
            assertEquals(List.of(2, 3, 1), arrivals, "the first part was held until the third arrived");
            assertEquals(List.of(1, 2, 3), completed, "CompleteMultipartUpload lists the parts by number");
            assertStored(store, bytes);
            assertEquals(2, store.freeSharedBuffers(), "the shared buffers are given back");
        }
        S3BlobStoreTest.assertNothingStaged(s3, PREFIX);
    }

    @Test
    void aFailedPartAbortsTheUploadOnceNoOtherPartIsOnItsWay() throws IOException {
        byte[] bytes = threeParts();
        CountDownLatch secondFailed = new CountDownLatch(1);
        List<String> events = new CopyOnWriteArrayList<>();
        PartWatcher failSecondWhileFirstIsOnItsWay = new PartWatcher() {
            @Override
            void sending(String key, int number) {
                if (number == 1) {
                    await(secondFailed);
                    pause(); // room for an abort that did not wait for this part to overtake it
                } else if (number == 2) {
                    events.add("part 2 failed");
                    secondFailed.countDown();
                    throw SdkClientException.create("part 2 refused");
                }
            }

            @Override
            void arrived(String key, int number) {
                events.add("part " + number + " arrived");
            }

            @Override
            void requested(SdkRequest request) {
                if (request instanceof AbortMultipartUploadRequest
                        || request instanceof CompleteMultipartUploadRequest) {
                    events.add(request.getClass().getSimpleName());
                }
            }
        };
        try (S3Client client = watched(failSecondWhileFirstIsOnItsWay)) {
            S3BlobStore store = store(client, 2);
            StoreUnavailable failure = assertThrows(StoreUnavailable.class, () -> putDeclared(store, bytes));
            assertEquals("the s3 blob store failed to upload part 2", failure.getMessage());
            assertEquals(List.of("part 2 failed", "part 1 arrived", "AbortMultipartUploadRequest"), events,
                    "aborted once the part in flight arrived, and never completed");
            assertEquals(OptionalLong.empty(), store.size(digestOf(bytes)), "nothing under the digest key");
            assertEquals(2, store.freeSharedBuffers(), "the shared buffers are given back");
        }
        S3BlobStoreTest.assertNothingStaged(s3, PREFIX);
    }

    @Test
    void anInterruptedUploadWaitsForItsPartsThenAborts() throws Exception {
        byte[] bytes = threeParts();
        CountDownLatch thirdArrived = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        List<String> events = new CopyOnWriteArrayList<>();
        PartWatcher holdFirstUntilInterrupted = new PartWatcher() {
            @Override
            void sending(String key, int number) {
                if (number == 1) {
                    await(interrupted);
                    pause(); // room for an abort that did not wait for this part to overtake it
                }
            }

            @Override
            void arrived(String key, int number) {
                events.add("part " + number + " arrived");
                if (number == 3) {
                    thirdArrived.countDown();
                }
            }

            @Override
            void requested(SdkRequest request) {
                if (request instanceof AbortMultipartUploadRequest
                        || request instanceof CompleteMultipartUploadRequest) {
                    events.add(request.getClass().getSimpleName());
                }
            }
        };
        try (S3Client client = watched(holdFirstUntilInterrupted)) {
            S3BlobStore store = store(client, 2);
            List<String> outcome = new CopyOnWriteArrayList<>();
            Thread upload = new Thread(() -> {
                try {
                    putDeclared(store, bytes);
                    outcome.add("stored");
                } catch (IOException e) {
                    outcome.add(e.getClass().getSimpleName() + ", interrupted: "
                            + Thread.currentThread().isInterrupted());
                }
            });
            upload.start();
            assertTrue(thirdArrived.await(PATIENCE_SECONDS, TimeUnit.SECONDS), "the upload waits for its first part");
            upload.interrupt();
            interrupted.countDown();
            upload.join(TimeUnit.SECONDS.toMillis(PATIENCE_SECONDS));

            assertEquals(List.of("InterruptedIOException, interrupted: true"), outcome);
            assertEquals(List.of("part 2 arrived", "part 3 arrived", "part 1 arrived", "AbortMultipartUploadRequest"),
                    events, "aborted once the part in flight arrived, although the thread was interrupted");
            assertEquals(OptionalLong.empty(), store.size(digestOf(bytes)), "nothing under the digest key");
            assertEquals(2, store.freeSharedBuffers(), "the shared buffers are given back");
        }
        S3BlobStoreTest.assertNothingStaged(s3, PREFIX);
    }

    private static void pause() {
        try {
            Thread.sleep(300);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void anUploadThatFindsTheSharedBufferTakenSendsOnePartAtATime() throws Exception {
        byte[] first = threeParts();
        byte[] second = threeParts();
        CountDownLatch firstSendsTwo = new CountDownLatch(1);
        CountDownLatch secondStored = new CountDownLatch(1);
        List<String> secondParts = new CopyOnWriteArrayList<>();
        PartWatcher holdFirstUntilSecondIsStored = new PartWatcher() {
            @Override
            void sending(String key, int number) {
                if (key.equals(keyOf(first)) && number == 1) {
                    await(secondStored);
                } else if (key.equals(keyOf(first)) && number == 2) {
                    firstSendsTwo.countDown();
                } else if (key.equals(keyOf(second))) {
                    secondParts.add("sending " + number);
                }
            }

            @Override
            void arrived(String key, int number) {
                if (key.equals(keyOf(second))) {
                    secondParts.add(number + " arrived");
                }
            }
        };
        try (S3Client client = watched(holdFirstUntilSecondIsStored)) {
            S3BlobStore store = store(client, 1);
            Future<StoredBlob> firstUpload = uploads.submit(() -> putDeclared(store, first));
            assertTrue(firstSendsTwo.await(PATIENCE_SECONDS, TimeUnit.SECONDS),
                    "the first upload took the one shared buffer and sends two parts at once");
            assertEquals(0, store.freeSharedBuffers());

            Future<StoredBlob> secondUpload = uploads.submit(() -> putDeclared(store, second));
            StoredBlob secondBlob;
            try {
                secondBlob = secondUpload.get(PATIENCE_SECONDS, TimeUnit.SECONDS);
            } finally {
                secondStored.countDown();
            }
            assertEquals(new StoredBlob(digestOf(second), second.length), secondBlob);
            assertEquals(List.of("sending 1", "1 arrived", "sending 2", "2 arrived", "sending 3", "3 arrived"),
                    secondParts, "without a shared buffer, one part at a time, not waiting for one");
            assertEquals(new StoredBlob(digestOf(first), first.length),
                    firstUpload.get(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertStored(store, first);
            assertStored(store, second);
            assertEquals(1, store.freeSharedBuffers(), "the shared buffer is given back");
        }
        S3BlobStoreTest.assertNothingStaged(s3, PREFIX);
    }
}
