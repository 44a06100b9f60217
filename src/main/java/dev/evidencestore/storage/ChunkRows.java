package dev.evidencestore.storage;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The rows one upload writes to the postgres store, in a transaction of its own: its chunks, then the content row
 * that makes them visible under the digest. Most evidence is one short block; such an upload opens no transaction
 * here, and takes none of the store's upload slots: it holds its block, and {@link ShortBlobCommits} writes it with
 * the content row, in one statement, together with the short blobs of the uploads that finish beside it.
 */
final class ChunkRows implements WriteBehind.Sink<SQLException>, AutoCloseable {

    private static final String NEXT_CONTENT_ID = "SELECT nextval('blob_content_id_seq')";
    private static final String INSERT_CHUNK = "INSERT INTO blob_chunk (content_id, seq, data) VALUES (?, ?, ?)";
    private static final String INSERT_CONTENT = """
            INSERT INTO blob_content (digest, content_id, size, chunk_size) VALUES (?, ?, ?, ?)
            ON CONFLICT (digest) DO NOTHING""";

    private final Transactions transactions;
    private final ShortBlobCommits shortBlobs;
    private final int chunkSize;
    private Connection connection;
    private PreparedStatement chunks;
    private long contentId;
    private byte[] whole;
    private int wholeLength;

    ChunkRows(Transactions transactions, ShortBlobCommits shortBlobs, int chunkSize) {
        this.transactions = transactions;
        this.shortBlobs = shortBlobs;
        this.chunkSize = chunkSize;
    }

    /**
     * Block {@code number} becomes chunk row {@code number}. A first block shorter than its buffer is the whole
     * upload ({@link WriteBehind#send}): it is held for {@link ShortBlobCommits}. The driver copies an array given to
     * setBytes; a stream over the block is sent from the block itself.
     */
    @Override
    public void write(byte[] block, int length, int number) throws IOException, SQLException {
        if (number == 0 && length < block.length) {
            whole = block;
            wholeLength = length;
            return;
        }
        if (chunks == null) {
            begin();
            chunks = connection.prepareStatement(INSERT_CHUNK);
        }
        chunks.setLong(1, contentId);
        chunks.setInt(2, number);
        chunks.setBinaryStream(3, new ByteArrayInputStream(block, 0, length), length);
        chunks.executeUpdate();
    }

    /**
     * Makes {@code blob} visible: a short upload's held block through {@link ShortBlobCommits}; otherwise the content
     * row is inserted and the chunks commit with it, or, when the digest was stored before (by a concurrent upload),
     * are rolled back. The empty upload has no chunk and no transaction yet: it takes one.
     */
    void commit(StoredBlob blob) throws IOException, SQLException {
        if (whole != null) {
            shortBlobs.commit(new ShortBlobCommits.Row(blob, whole, wholeLength));
            return;
        }
        if (connection == null) {
            begin();
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT_CONTENT)) {
            insert.setString(1, blob.digest().toString());
            insert.setLong(2, contentId);
            insert.setLong(3, blob.size());
            insert.setInt(4, chunkSize);
            if (insert.executeUpdate() == 1) {
                connection.commit();
            } else {
                connection.rollback();
            }
        }
    }

    private void begin() throws IOException, SQLException {
        connection = transactions.open();
        connection.setAutoCommit(false);
        contentId = nextContentId();
    }

    private long nextContentId() throws SQLException {
        try (PreparedStatement next = connection.prepareStatement(NEXT_CONTENT_ID);
             ResultSet rs = next.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * Rolls back whatever was not committed (whatever failed, an Error too: the return to autocommit would commit the
     * chunks so far) and returns the connection.
     */
    @Override
    public void close() throws SQLException {
        if (connection == null) {
            return;
        }
        try (Connection held = connection) {
            if (chunks != null) {
                chunks.close();
            }
            held.rollback();
            held.setAutoCommit(true);
        } finally {
            transactions.closed();
        }
    }

    /** Where an upload's own transaction comes from: a connection, and a slot among the uploads that hold one. */
    interface Transactions {

        /** A connection for one upload, once it has a slot; the store is busy when none comes free in time. */
        Connection open() throws IOException, SQLException;

        /** The upload's connection is closed: its slot is free. */
        void closed();
    }
}
