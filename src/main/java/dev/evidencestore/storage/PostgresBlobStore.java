package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import javax.sql.DataSource;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Blobs as fixed-size chunk rows in PostgreSQL. One transaction writes the chunks under a fresh content id and
 * then the {@code blob_content} row that names them, so a blob is visible complete or not at all; a concurrent
 * upload of the same bytes loses the race on the primary key and rolls its copy back. Blobs of one short block,
 * most evidence, are committed with the others that finish beside them ({@link ShortBlobCommits}).
 */
public final class PostgresBlobStore implements BlobStore {

    private static final String FIND_CONTENT =
            "SELECT content_id, size, chunk_size FROM blob_content WHERE digest = ?";

    private final DataSource dataSource;
    private final int chunkSize;

    private static final int RETRY_AFTER_SECONDS = 5;
    /** At most this many short blobs, at most that many blocks of memory held by their uploads, per commit. */
    private static final int SHORT_BLOBS_PER_COMMIT = 64;

    private final Semaphore uploads;
    private final Duration slotWait;
    private final Reads reads;
    private final Semaphore streams;
    private final ShortBlobCommits shortBlobs;
    private final ChunkRows.Transactions transactions;

    /** {@code maxStreamingReads}: reads that may each hold a connection while they stream ({@link ChunkStream}). */
    public PostgresBlobStore(DataSource dataSource, int chunkSize, int maxConcurrentUploads, Duration slotWait,
                             int maxStreamingReads) {
        this(dataSource, chunkSize, maxConcurrentUploads, slotWait, Reads.of(maxStreamingReads));
    }

    PostgresBlobStore(DataSource dataSource, int chunkSize, int maxConcurrentUploads, Duration slotWait, Reads reads) {
        this.dataSource = dataSource;
        this.chunkSize = chunkSize;
        this.uploads = new Semaphore(maxConcurrentUploads, true);
        this.slotWait = slotWait;
        this.reads = reads;
        this.transactions = new SlotTransactions();
        this.shortBlobs = new ShortBlobCommits(dataSource, chunkSize, SHORT_BLOBS_PER_COMMIT);
        this.streams = new Semaphore(reads.streams());
    }

    @Override
    public StoredBlob put(InputStream content, UploadPolicy policy) throws IOException {
        MeasuredInput in = new MeasuredInput(content, policy);
        try (ChunkRows rows = new ChunkRows(transactions, shortBlobs, chunkSize)) {
            WriteBehind<SQLException> chunks = new WriteBehind<>(chunkSize, policy.firstBlock(chunkSize),
                    SQLException.class, rows);
            try {
                chunks.sendAll(in);
            } finally {
                chunks.quiesce();
            }
            StoredBlob blob = in.finish();
            rows.commit(blob);
            return blob;
        } catch (SQLException e) {
            throw new StoreUnavailable("the postgres blob store failed to write", e);
        }
    }

    /** An upload's own transaction, once one of the upload slots is free: at most so many hold a connection. */
    private final class SlotTransactions implements ChunkRows.Transactions {

        @Override
        public Connection open() throws IOException, SQLException {
            if (!acquireSlot()) {
                throw new StoreBusy("too many uploads are streaming into the database right now",
                        RETRY_AFTER_SECONDS);
            }
            try {
                return dataSource.getConnection();
            } catch (SQLException | RuntimeException e) {
                uploads.release();
                throw e;
            }
        }

        @Override
        public void closed() {
            uploads.release();
        }

        private boolean acquireSlot() throws IOException {
            try {
                return uploads.tryAcquire(slotWait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for an upload slot");
            }
        }
    }

    /**
     * Short blobs commit in groups ({@link ShortBlobCommits}): the more writes wait on one commit, the fewer commits
     * each item costs. Batches of 1,000 items of 10 KiB ran 12% faster with 16 than with 8, and 32 added little
     * (docs/operations.md); 16 items of at most 64 KiB hold no more than the chunk that admission counts per upload.
     */
    @Override
    public int smallWritesAtOnce() {
        return 16;
    }

    @Override
    public long heldOfUpload(long declaredSize, boolean oneDigest) {
        return BlobStore.bufferUpTo(declaredSize, chunkSize);
    }

    @Override
    public OptionalLong size(Digest digest) throws IOException {
        Content content = find(digest);
        return content == null ? OptionalLong.empty() : OptionalLong.of(content.size());
    }

    @Override
    public InputStream open(Digest digest, long offset, long length) throws IOException {
        Content content = find(digest);
        if (content == null) {
            throw new NoSuchFileException(digest.toString());
        }
        // one slice takes one query; beyond the streams lent out, a read queries slice by slice and holds no connection
        if (length > reads.slice() && streams.tryAcquire()) {
            return new ChunkStream(dataSource, content, offset, length, reads, streams::release);
        }
        return new ChunkInput(dataSource, content, offset, length, reads.slice());
    }

    private Content find(Digest digest) throws IOException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(FIND_CONTENT)) {
            query.setString(1, digest.toString());
            try (ResultSet rs = query.executeQuery()) {
                return rs.next() ? new Content(rs.getLong(1), rs.getLong(2), rs.getInt(3)) : null;
            }
        } catch (SQLException e) {
            throw new IOException("the postgres blob store failed to read " + digest, e);
        }
    }

    /** Where a stored blob's chunks are. */
    record Content(long id, long size, int chunkSize) {
    }

    /**
     * How reads fetch chunks: in slices of at most {@code slice} bytes, at most {@code run} bytes per COPY, and at most
     * {@code streams} reads streaming at once.
     */
    record Reads(int slice, long run, int streams) {

        /**
         * A slice is the response's own buffer, so it goes out in one write. Runs of 8 to 128 MiB streamed alike in
         * the benchmark; 32 MiB bounds what a stream closed early still reads to free its connection.
         */
        static Reads of(int streams) {
            return new Reads(256 * 1024, 32L * 1024 * 1024, streams);
        }
    }
}
