package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.support.S3ProxyServer;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.s3.S3Client;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLPeerUnverifiedException;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static dev.evidencestore.support.S3ProxyServer.BUCKET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The s3 backend over https, as S3 is reached, through {@link S3TlsSockets}: bytes read through the socket's buffer
 * arrive whole and in order however the reader asks for them, and a certificate for another host is refused.
 */
class S3TlsSocketsTest {

    private static S3ProxyServer server;
    private static SSLContext trusting;

    @BeforeAll
    static void startS3OverHttps() {
        server = S3ProxyServer.freshOverHttps("tls");
        trusting = server.trustingContext();
    }

    @AfterAll
    static void stopS3() {
        server.close();
    }

    @Test
    void aBlobOfManyRecordsReadsBackWholeInSmallAndLargeReads() throws IOException {
        byte[] bytes = new byte[3 * 1024 * 1024 + 17];
        new Random(17).nextBytes(bytes);
        Digest digest = Digest.of(DigestUtils.sha256(bytes));
        try (S3Client s3 = client(server.endpoint())) {
            S3BlobStore store = store(s3);
            store.put(new ByteArrayInputStream(bytes), new UploadPolicy(Set.of(digest), bytes.length));

            assertArrayEquals(bytes, readInSteps(store.open(digest, 0, bytes.length), 5, 16_389, 100_000));
            int offset = 1_000_001;
            assertArrayEquals(Arrays.copyOfRange(bytes, offset, offset + 200_000),
                    readInSteps(store.open(digest, offset, 200_000), 3, 70_000));
        }
    }

    @Test
    void aCertificateForAnotherHostIsRefused() {
        URI byName = URI.create(server.endpoint().toString().replace("127.0.0.1", "localhost"));
        try (S3Client s3 = client(byName)) {
            IOException refused = assertThrows(IOException.class,
                    () -> store(s3).size(Digest.parse("sha256:" + "0".repeat(64))));
            assertTrue(causes(refused).stream().anyMatch(SSLPeerUnverifiedException.class::isInstance),
                    () -> "not refused for its hostname: " + causes(refused));
        }
    }

    @Test
    void theSocketBeneathTlsHandsOutOneBufferedStream() throws IOException {
        try (S3TlsSockets.ReadBufferedSocket socket = new S3TlsSockets.ReadBufferedSocket();
             ServerSocket listening = new ServerSocket(0)) {
            socket.connect(listening.getLocalSocketAddress());
            InputStream first = socket.getInputStream();
            assertInstanceOf(BufferedInputStream.class, first);
            assertEquals(first, socket.getInputStream());
        }
    }

    private static S3Client client(URI endpoint) {
        return S3ProxyServer.clientBuilder(endpoint)
                .httpClientBuilder(ApacheHttpClient.builder().socketFactory(new S3TlsSockets(trusting)))
                .build();
    }

    private static S3BlobStore store(S3Client s3) {
        return new S3BlobStore(s3, new BucketLayout(BUCKET, "blobs/"), S3BlobStoreTest.TRANSFER, Clock.systemUTC());
    }

    /** Reads the whole stream, cycling through the given read sizes. */
    private static byte[] readInSteps(InputStream stream, int... sizes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = stream) {
            byte[] buffer = new byte[Arrays.stream(sizes).max().orElseThrow()];
            for (int i = 0; ; i++) {
                int n = in.read(buffer, 0, sizes[i % sizes.length]);
                if (n < 0) {
                    return out.toByteArray();
                }
                out.write(buffer, 0, n);
            }
        }
    }

    private static List<Throwable> causes(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
