package dev.evidencestore.storage;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;
import org.postgresql.jdbc.PgConnection;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Map;

/**
 * Streams a byte range of a chunked blob through one {@code COPY ... TO STDOUT} per run of chunks: PostgreSQL sends
 * slice after slice into the socket while the reader hashes and passes on the last one, where {@link ChunkInput}
 * waits for a query per slice. The server cuts the chunks into slices, so the stream holds one slice whatever the
 * chunk size. It holds a database connection from its first read until it ends or is closed (a download its client
 * stopped reading, until the download is cut off as stalled), so the store lends out only a few streams at once.
 */
final class ChunkStream extends BlockInput implements PrefetchedInput {

    /**
     * Each row is one slice: its chunk's seq, where in the chunk it starts, and its bytes. PostgreSQL evaluates
     * generate_series, a set-returning function, after the sort, so a chunk's slices follow in order; each row still
     * says where it belongs, and a row out of place fails the read instead of passing on misplaced bytes.
     */
    private static final String COPY_SLICES = """
            COPY (SELECT seq, start::int, substring(data FROM start::int + 1 FOR least(:slice, stop - start)::int)
                  FROM (SELECT seq, data, least(:chunk, :to - seq::bigint * :chunk) AS stop,
                               generate_series(greatest(0, :from - seq::bigint * :chunk),
                                               least(:chunk, :to - seq::bigint * :chunk) - 1, :slice) AS start
                        FROM blob_chunk WHERE content_id = :content AND seq BETWEEN :first AND :last
                        ORDER BY seq) slices)
            TO STDOUT (FORMAT binary)""";
    private static final byte[] SIGNATURE = "PGCOPY\n\377\r\n\0".getBytes(StandardCharsets.ISO_8859_1);
    private static final int FIELDS = 3;
    private static final short TRAILER = -1;
    private static final byte[] NOTHING = new byte[0];

    private final DataSource dataSource;
    private final PostgresBlobStore.Content content;
    private final PostgresBlobStore.Reads reads;
    private final Runnable release;
    private final long end;
    private long position;
    private long runEnd;
    private Connection connection;
    private CopyOut copy;
    /** The COPY's current message, of which the bytes from {@code at} are unread. */
    private byte[] message = NOTHING;
    private int at;
    private int sliceLeft;
    private boolean closed;

    /** {@code release} is run once, when the stream is closed. */
    ChunkStream(DataSource dataSource, PostgresBlobStore.Content content, long offset, long length,
                PostgresBlobStore.Reads reads, Runnable release) {
        this.dataSource = dataSource;
        this.content = content;
        this.reads = reads;
        this.position = offset;
        this.end = offset + length;
        this.release = release;
    }

    @Override
    public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
        if (closed) {
            throw new IOException("the chunk stream of content " + content.id() + " is closed");
        }
        if (position == end) {
            return -1;
        }
        if (length == 0) {
            return 0;
        }
        if (sliceLeft == 0) {
            startSlice();
        }
        if (at == message.length && !nextMessage()) {
            throw missing();
        }
        int n = Math.min(Math.min(length, sliceLeft), message.length - at);
        System.arraycopy(message, at, buffer, offset, n);
        at += n;
        sliceLeft -= n;
        position += n;
        if (position == runEnd) {
            endRun();
        }
        return n;
    }

    /** The bytes of the COPY the stream holds in memory: the message of the slice being read. */
    synchronized int held() {
        return message.length;
    }

    private void startSlice() throws IOException {
        if (copy == null) {
            startRun();
        }
        if (readShort() != FIELDS) {
            throw missing();
        }
        int seq = readIntField();
        int start = readIntField();
        int size = readInt();
        if ((long) seq * content.chunkSize() + start != position || size != expectedSlice()) {
            throw missing();
        }
        sliceLeft = size;
    }

    /** The slice that starts at the current position: up to the end of its chunk, of the run, or a whole slice. */
    private int expectedSlice() {
        long chunkEnd = (position / content.chunkSize() + 1) * content.chunkSize();
        return (int) Math.min(reads.slice(), Math.min(chunkEnd, runEnd) - position);
    }

    private void startRun() throws IOException {
        runEnd = Math.min(end, position + reads.run());
        try {
            connection = dataSource.getConnection();
            // in a transaction of its own, whose rollback at the end goes through the pool: a connection the database
            // dropped fails it, and the pool replaces it instead of lending it out again
            connection.setAutoCommit(false);
            copy = connection.unwrap(PGConnection.class).getCopyAPI().copyOut(copySlices());
        } catch (SQLException e) {
            releaseConnection();
            throw failed(e);
        }
        readHeader();
    }

    /** The binary COPY's signature, flags and header extension. */
    private void readHeader() throws IOException {
        byte[] signature = new byte[SIGNATURE.length];
        readFully(signature);
        if (!Arrays.equals(signature, SIGNATURE)) {
            throw new IOException("PostgreSQL's COPY of content " + content.id() + " is not in binary format");
        }
        readInt();
        skip(readInt());
    }

    private String copySlices() {
        long from = position;
        Map<String, Long> values = Map.of(
                ":content", content.id(),
                ":chunk", (long) content.chunkSize(),
                ":slice", (long) reads.slice(),
                ":from", from,
                ":to", runEnd,
                ":first", from / content.chunkSize(),
                ":last", (runEnd - 1) / content.chunkSize());
        String sql = COPY_SLICES;
        for (Map.Entry<String, Long> value : values.entrySet()) {
            sql = sql.replace(value.getKey(), Long.toString(value.getValue()));
        }
        return sql;
    }

    /** The run's last slice has been read: its COPY must end here, and its connection goes back to the pool. */
    private void endRun() throws IOException {
        if (readShort() != TRAILER || at < message.length || nextMessage()) {
            throw new IOException("content " + content.id() + " has more chunk bytes than its blob's size");
        }
        releaseConnection();
    }

    private boolean nextMessage() throws IOException {
        byte[] next;
        try {
            next = copy.readFromCopy();
        } catch (SQLException e) {
            throw failed(e);
        }
        message = next == null ? NOTHING : next;
        at = 0;
        return next != null;
    }

    private void readFully(byte[] into) throws IOException {
        int filled = 0;
        while (filled < into.length) {
            if (at == message.length && !nextMessage()) {
                throw missing();
            }
            int n = Math.min(into.length - filled, message.length - at);
            System.arraycopy(message, at, into, filled, n);
            at += n;
            filled += n;
        }
    }

    private void skip(int bytes) throws IOException {
        readFully(new byte[bytes]);
    }

    /** A row's integer field: its length, then its value. */
    private int readIntField() throws IOException {
        if (readInt() != Integer.BYTES) {
            throw missing();
        }
        return readInt();
    }

    private int readInt() throws IOException {
        byte[] bytes = new byte[Integer.BYTES];
        readFully(bytes);
        return (bytes[0] & 0xff) << 24 | (bytes[1] & 0xff) << 16 | (bytes[2] & 0xff) << 8 | bytes[3] & 0xff;
    }

    private short readShort() throws IOException {
        byte[] bytes = new byte[Short.BYTES];
        readFully(bytes);
        return (short) ((bytes[0] & 0xff) << 8 | bytes[1] & 0xff);
    }

    private IOException missing() {
        return new IOException("chunk " + position / content.chunkSize() + " of content " + content.id()
                + " is missing or shorter than recorded");
    }

    private static IOException failed(SQLException e) {
        return new IOException("the postgres blob store failed to read chunks", e);
    }

    /**
     * Reads what is left of the run's COPY, at most a run's bytes, so that the connection goes back to the pool
     * ready for its next query. Cancelling the COPY instead would not do: pgjdbc's cancel leaves the rest of a COPY
     * out unread on the connection, and the cancel request may arrive after the COPY, in the next query.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (copy != null && copy.isActive()) {
                drain();
            }
        } finally {
            releaseConnection();
            release.run();
        }
    }

    private void drain() {
        try {
            while (copy.readFromCopy() != null) {
                // dropped: the reader wants no more
            }
        } catch (SQLException e) {
            // the connection failed: it is dropped, not given back
        }
    }

    /** Ends the run's transaction and gives its connection back, or has the pool drop it when it cannot be used. */
    private void releaseConnection() {
        if (connection == null) {
            return;
        }
        boolean locked = copy != null && copy.isActive();
        copy = null;
        message = NOTHING;
        at = 0;
        try (Connection done = connection) {
            connection = null;
            if (locked) {
                discard(done);
            } else {
                done.rollback();
            }
        } catch (SQLException e) {
            // the read has what it needs or failed already; the pool replaces the connection that failed here
        }
    }

    /**
     * A COPY that failed mid-way leaves pgjdbc's connection locked for it, so that its next query would wait for ever.
     * It is closed under the pool; its next use, here, then fails as closed, which tells the pool to drop it.
     */
    private static void discard(Connection connection) throws SQLException {
        connection.unwrap(PgConnection.class).close();
        connection.getAutoCommit();
    }
}
