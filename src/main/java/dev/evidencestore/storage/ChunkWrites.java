package dev.evidencestore.storage;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * The chunk inserts of one upload, each running while the next chunk is read and hashed: the upload's own thread
 * reads into one of two buffers while a writer thread sends the other to PostgreSQL. At most one insert is in flight,
 * so the connection is used by one thread at a time, in order, and the upload holds two chunks of memory.
 */
final class ChunkWrites {

    private final PreparedStatement insert;
    private final long contentId;
    private final ExecutorService writers;
    private final byte[][] buffers;
    private Future<?> inFlight;
    private int seq;

    ChunkWrites(PreparedStatement insert, long contentId, int chunkSize, ExecutorService writers) {
        this.insert = insert;
        this.contentId = contentId;
        this.writers = writers;
        this.buffers = new byte[][] {new byte[chunkSize], new byte[chunkSize]};
    }

    /** The buffer to read the next chunk into: not the one whose insert may still be running. */
    byte[] nextBuffer() {
        return buffers[seq % 2];
    }

    /** Sends the first {@code length} bytes of {@link #nextBuffer()} as the next chunk, once the previous one is in. */
    void send(int length) throws IOException, SQLException {
        awaitInFlight();
        byte[] chunk = buffers[seq % 2];
        byte[] data = length == chunk.length ? chunk : Arrays.copyOf(chunk, length);
        int number = seq++;
        inFlight = writers.submit(() -> {
            insert.setLong(1, contentId);
            insert.setInt(2, number);
            insert.setBytes(3, data);
            insert.executeUpdate();
            return null;
        });
    }

    /** Waits for the last insert; its failure is this upload's. */
    void awaitInFlight() throws IOException, SQLException {
        if (inFlight == null) {
            return;
        }
        try {
            inFlight.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while a chunk was written");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof SQLException sql) {
                throw sql;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException("a chunk could not be written", e.getCause());
        } finally {
            inFlight = null;
        }
    }

    /** Before the connection is rolled back or reused: no insert may still be running on it. */
    void quiesce() {
        if (inFlight != null) {
            try {
                inFlight.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // the upload is failing already; this insert's own failure adds nothing
            }
            inFlight = null;
        }
    }
}
