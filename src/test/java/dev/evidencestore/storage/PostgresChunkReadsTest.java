package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.integrity.BlobIntegrity;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.TestDatabase;
import io.agroal.api.AgroalDataSource;
import io.agroal.api.configuration.supplier.AgroalDataSourceConfigurationSupplier;
import io.agroal.api.exceptionsorter.PostgreSQLExceptionSorter;
import io.agroal.api.security.NamePrincipal;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How the postgres backend reads chunk rows: any range comes back byte for byte across chunk, slice and run
 * boundaries; a damaged chunk, a lost one and a connection cut mid-COPY end the read with an IOException after only
 * right bytes; a stalled stream holds one slice and one connection, and the store lends out no more streams than it
 * may, each of which gives its connection back ready for the next query however early it is closed.
 */
@QuarkusTest
class PostgresChunkReadsTest {

    private static final int CHUNK = 1000;
    /** Slices and runs that divide neither the chunks nor each other. */
    private static final PostgresBlobStore.Reads SMALL = new PostgresBlobStore.Reads(300, 2500, 4);
    /** The connections of {@link ChunkStream}s between the start of a COPY and its rollback. */
    private static final String STREAMING = """
            SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()
            AND query LIKE 'COPY (SELECT seq, start::int%' AND state <> 'idle'""";
    private static final String CONTENT_OF = "(SELECT content_id FROM blob_content WHERE digest = ?)";

    @Inject
    AgroalDataSource dataSource;

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size * 31L + System.nanoTime()).nextBytes(bytes);
        return bytes;
    }

    private static PostgresBlobStore store(DataSource dataSource, int chunkSize, PostgresBlobStore.Reads reads) {
        return new PostgresBlobStore(dataSource, chunkSize, 4, Duration.ofSeconds(5), reads);
    }

    private static Digest put(BlobStore store, byte[] bytes) throws IOException {
        return store.put(new ByteArrayInputStream(bytes), UploadPolicy.unchecked(bytes.length)).digest();
    }

    @Test
    void aStreamedReadIsNotReadAheadAgainButASliceBySliceReadIs() throws IOException {
        byte[] bytes = random(5 * CHUNK + 432);
        for (int streams : new int[] {SMALL.streams(), 0}) {
            PostgresBlobStore store = store(dataSource, CHUNK,
                    new PostgresBlobStore.Reads(SMALL.slice(), SMALL.run(), streams));
            Digest digest = put(store, bytes);
            InputStream opened = store.open(digest);
            try (InputStream in = ReadAhead.of(opened, bytes.length)) {
                if (streams > 0) {
                    assertInstanceOf(ChunkStream.class, in);
                } else {
                    assertInstanceOf(ReadAhead.class, in);
                }
                assertArrayEquals(bytes, in.readAllBytes());
            }
        }
    }

    @Test
    void everyRangeAcrossChunksSlicesAndRunsReadsExactlyItsBytes() throws IOException {
        byte[] bytes = random(5 * CHUNK + 432);
        long[] offsets = {0, 1, 299, 300, 301, 999, 1000, 1001, 2499, 2500, 2501, 4999, 5000, 5431};
        long[] lengths = {1, 2, 299, 300, 301, 999, 1000, 1001, 2500, 2501, 5432};
        for (int streams : new int[] {SMALL.streams(), 0}) {
            PostgresBlobStore store = store(dataSource, CHUNK,
                    new PostgresBlobStore.Reads(SMALL.slice(), SMALL.run(), streams));
            Digest digest = put(store, bytes);
            for (long offset : offsets) {
                for (long wanted : lengths) {
                    int length = (int) Math.min(wanted, bytes.length - offset);
                    try (InputStream in = store.open(digest, offset, length)) {
                        boolean streamed = streams > 0 && length > SMALL.slice();
                        assertEquals(streamed ? ChunkStream.class : ChunkInput.class, in.getClass());
                        assertArrayEquals(Arrays.copyOfRange(bytes, (int) offset, (int) offset + length),
                                in.readAllBytes(), "range " + offset + "+" + length + ", streams " + streams);
                    }
                }
            }
        }
    }

    @Test
    void aChunkShorterThanRecordedEndsTheStreamAfterTheBytesBeforeIt() throws Exception {
        byte[] bytes = random(5 * CHUNK);
        PostgresBlobStore store = store(dataSource, CHUNK, SMALL);
        Digest digest = put(store, bytes);
        try {
            assertEquals(1, Sql.tamper("UPDATE blob_chunk SET data = substring(data FROM 1 FOR 100) "
                    + "WHERE seq = 2 AND content_id = " + CONTENT_OF, digest.toString()));
            Delivered read = readUntilFailure(store, digest, bytes.length);
            // the slice at 2000 has 100 bytes where 300 are due: none of them is passed on
            assertArrayEquals(Arrays.copyOf(bytes, 2 * CHUNK), read.bytes());
            assertTrue(read.failure().getMessage().startsWith("chunk 2 of content "), read.failure().getMessage());
        } finally {
            remove(digest);
        }
    }

    @Test
    void aLostChunkEndsTheStreamAfterTheBytesBeforeIt() throws Exception {
        byte[] bytes = random(5 * CHUNK);
        PostgresBlobStore store = store(dataSource, CHUNK, SMALL);
        Digest digest = put(store, bytes);
        try {
            assertEquals(1, Sql.tamper("DELETE FROM blob_chunk WHERE seq = 3 AND content_id = " + CONTENT_OF,
                    digest.toString()));
            Delivered read = readUntilFailure(store, digest, bytes.length);
            // chunk 4's first slice comes where chunk 3's was due
            assertArrayEquals(Arrays.copyOf(bytes, 3 * CHUNK), read.bytes());
            assertTrue(read.failure().getMessage().startsWith("chunk 3 of content "), read.failure().getMessage());
        } finally {
            remove(digest);
        }
    }

    @Test
    void aConnectionCutMidCopyFailsTheReadWithAnIOExceptionAfterOnlyRightBytes() throws Exception {
        byte[] bytes = random(512 * 1024);
        int chunk = 64 * 1024;
        PostgresBlobStore.Reads reads = new PostgresBlobStore.Reads(16 * 1024, bytes.length, 1);
        Digest digest = put(store(dataSource, chunk, reads), bytes);
        try (StallingProxy proxy = new StallingProxy(64 * 1024);
             AgroalDataSource proxied = pool("jdbc:postgresql://127.0.0.1:" + proxy.port() + "/" + TestDatabase.NAME)) {
            PostgresBlobStore store = store(proxied, chunk, reads);
            ByteArrayOutputStream delivered = new ByteArrayOutputStream();
            IOException failure = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                try (InputStream in = store.open(digest, 0, bytes.length)) {
                    delivered.write(in.readNBytes(1024));
                    proxy.cut();
                    return assertThrows(IOException.class, () -> in.transferTo(delivered));
                }
            });
            assertTrue(BlobIntegrity.databaseFailed(failure), "not told as the database's failure: " + failure);
            byte[] got = delivered.toByteArray();
            assertTrue(got.length < 64 * 1024, "more bytes than the proxy let through: " + got.length);
            assertArrayEquals(Arrays.copyOf(bytes, got.length), got);
            // the pool's one connection, left locked by the broken COPY, was dropped: a new one answers
            assertEquals(OptionalLong.of(bytes.length),
                    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> store.size(digest)));
        }
    }

    @Test
    void stalledStreamsHoldOneSliceAndOneConnectionEachAndNoMoreStreamsThanLentOut() throws Exception {
        byte[] bytes = random(1024 * 1024);
        PostgresBlobStore.Reads reads = new PostgresBlobStore.Reads(16 * 1024, 256 * 1024, 2);
        PostgresBlobStore store = store(dataSource, 64 * 1024, reads);
        Digest digest = put(store, bytes);
        List<InputStream> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                stalled.add(store.open(digest, 0, bytes.length));
                assertEquals(bytes[0] & 0xff, stalled.get(i).read());
            }
            for (InputStream stream : stalled.subList(0, 2)) {
                int held = assertInstanceOf(ChunkStream.class, stream).held();
                // the COPY's own header and a row's fields come on top of the slice
                assertTrue(held > reads.slice() && held <= reads.slice() + 64, "holds " + held + " bytes");
            }
            assertInstanceOf(ChunkInput.class, stalled.get(2));
            assertEquals(2, Sql.count(STREAMING));
        } finally {
            for (InputStream stream : stalled) {
                stream.close();
            }
        }
        assertEquals(0, Sql.count(STREAMING));
        try (InputStream in = store.open(digest, 0, bytes.length)) {
            assertInstanceOf(ChunkStream.class, in);
            assertArrayEquals(bytes, in.readAllBytes());
        }
    }

    @Test
    void aStreamClosedEarlyLeavesItsConnectionReadyForTheNextQuery() throws Exception {
        byte[] bytes = random(1024 * 1024);
        PostgresBlobStore.Reads reads = new PostgresBlobStore.Reads(16 * 1024, 512 * 1024, 1);
        // one connection: the reads after the early close get the very connection it gave back
        try (AgroalDataSource one = pool(TestDatabase.URL)) {
            PostgresBlobStore store = store(one, 64 * 1024, reads);
            Digest digest = put(store, bytes);
            try (InputStream in = store.open(digest, 0, bytes.length)) {
                assertEquals(bytes[0] & 0xff, in.read());
            }
            assertEquals(OptionalLong.of(bytes.length), store.size(digest));
            try (InputStream in = store.open(digest, 1000, bytes.length - 1000)) {
                assertArrayEquals(Arrays.copyOfRange(bytes, 1000, bytes.length), in.readAllBytes());
            }
        }
    }

    private static Delivered readUntilFailure(BlobStore store, Digest digest, long length) throws IOException {
        ByteArrayOutputStream delivered = new ByteArrayOutputStream();
        try (InputStream in = store.open(digest, 0, length)) {
            IOException failure = assertThrows(IOException.class, () -> in.transferTo(delivered));
            return new Delivered(delivered.toByteArray(), failure);
        }
    }

    /** Takes a damaged blob out again, so that no other test meets it. */
    private static void remove(Digest digest) throws SQLException {
        Sql.tamper("DELETE FROM blob_chunk WHERE content_id = " + CONTENT_OF, digest.toString());
        Sql.tamper("DELETE FROM blob_content WHERE digest = ?", digest.toString());
    }

    /** A pool of one connection of the service's role, which drops connections as Quarkus configures it to. */
    private static AgroalDataSource pool(String url) throws SQLException {
        return AgroalDataSource.from(new AgroalDataSourceConfigurationSupplier()
                .connectionPoolConfiguration(pool -> pool.maxSize(1).acquisitionTimeout(Duration.ofSeconds(5))
                        .exceptionSorter(new PostgreSQLExceptionSorter())
                        .connectionFactoryConfiguration(factory -> factory.jdbcUrl(url)
                                .principal(new NamePrincipal(TestDatabase.RUNTIME_USER)))));
    }

    private record Delivered(byte[] bytes, IOException failure) {
    }

    /**
     * Forwards connections to the test PostgreSQL, passing on at most {@code allowance} bytes from the server on each
     * and holding back the rest, as a network that stops mid-transfer; {@link #cut} then ends every connection.
     */
    private static final class StallingProxy implements AutoCloseable {
        private final ServerSocket server;
        private final long allowance;
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();

        StallingProxy(long allowance) throws IOException {
            this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            this.allowance = allowance;
            daemon(this::acceptAll);
        }

        int port() {
            return server.getLocalPort();
        }

        private void acceptAll() {
            String[] database = TestDatabase.HOST.split(":");
            try {
                while (true) {
                    Socket client = server.accept();
                    Socket postgres = new Socket(database[0], Integer.parseInt(database[1]));
                    sockets.add(client);
                    sockets.add(postgres);
                    daemon(() -> pump(client, postgres, Long.MAX_VALUE));
                    daemon(() -> pump(postgres, client, allowance));
                }
            } catch (IOException closed) {
                // the proxy is closed
            }
        }

        private static void daemon(Runnable task) {
            Thread thread = new Thread(task, "stalling-proxy");
            thread.setDaemon(true);
            thread.start();
        }

        private static void pump(Socket from, Socket to, long allowance) {
            byte[] buffer = new byte[8192];
            long left = allowance;
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                int n;
                while (left > 0 && (n = in.read(buffer, 0, (int) Math.min(buffer.length, left))) > 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                    left -= n;
                }
            } catch (IOException cut) {
                // the connection was cut
            }
        }

        void cut() throws IOException {
            for (Socket socket : sockets) {
                socket.close();
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
            cut();
        }
    }
}
