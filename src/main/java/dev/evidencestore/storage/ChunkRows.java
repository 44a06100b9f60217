package dev.evidencestore.storage;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The rows one upload writes to the postgres store, on the upload's connection and in its transaction: its chunks,
 * then the content row that makes them visible under the digest. Most evidence is one short block; such an upload
 * is written in a single statement once its digest is known (the content ID drawn, the chunk and the content row
 * inserted), so it costs one round trip and the commit rather than four.
 */
final class ChunkRows implements WriteBehind.Sink<SQLException>, AutoCloseable {

    private static final String NEXT_CONTENT_ID = "SELECT nextval('blob_content_id_seq')";
    private static final String INSERT_CHUNK = "INSERT INTO blob_chunk (content_id, seq, data) VALUES (?, ?, ?)";
    private static final String INSERT_CONTENT = """
            INSERT INTO blob_content (digest, content_id, size, chunk_size) VALUES (?, ?, ?, ?)
            ON CONFLICT (digest) DO NOTHING""";
    private static final String INSERT_WHOLE = """
            WITH id AS (SELECT nextval('blob_content_id_seq') AS content_id),
                 chunk AS (INSERT INTO blob_chunk (content_id, seq, data) SELECT content_id, 0, ? FROM id)
            INSERT INTO blob_content (digest, content_id, size, chunk_size) SELECT ?, content_id, ?, ? FROM id
            ON CONFLICT (digest) DO NOTHING""";

    private final Connection connection;
    private final int chunkSize;
    private PreparedStatement chunks;
    private long contentId = -1;
    private byte[] whole;
    private int wholeLength;

    ChunkRows(Connection connection, int chunkSize) {
        this.connection = connection;
        this.chunkSize = chunkSize;
    }

    /**
     * Block {@code number} becomes chunk row {@code number}. A first block shorter than its buffer is the whole
     * upload ({@link WriteBehind#send}): it is held until {@link #record}, which writes it with the content row. The
     * driver copies an array given to setBytes; a stream over the block is sent from the block itself.
     */
    @Override
    public void write(byte[] block, int length, int number) throws SQLException {
        if (number == 0 && length < block.length) {
            whole = block;
            wholeLength = length;
            return;
        }
        if (chunks == null) {
            contentId = nextContentId();
            chunks = connection.prepareStatement(INSERT_CHUNK);
        }
        chunks.setLong(1, contentId);
        chunks.setInt(2, number);
        chunks.setBinaryStream(3, new ByteArrayInputStream(block, 0, length), length);
        chunks.executeUpdate();
    }

    /** Inserts the content row of {@code blob} (and its one short chunk); false when the digest was stored before. */
    boolean record(StoredBlob blob) throws SQLException {
        if (whole != null) {
            try (PreparedStatement insert = connection.prepareStatement(INSERT_WHOLE)) {
                insert.setBinaryStream(1, new ByteArrayInputStream(whole, 0, wholeLength), wholeLength);
                insert.setString(2, blob.digest().toString());
                insert.setLong(3, blob.size());
                insert.setInt(4, chunkSize);
                return insert.executeUpdate() == 1;
            }
        }
        long id = contentId >= 0 ? contentId : nextContentId();
        try (PreparedStatement insert = connection.prepareStatement(INSERT_CONTENT)) {
            insert.setString(1, blob.digest().toString());
            insert.setLong(2, id);
            insert.setLong(3, blob.size());
            insert.setInt(4, chunkSize);
            return insert.executeUpdate() == 1;
        }
    }

    private long nextContentId() throws SQLException {
        try (PreparedStatement next = connection.prepareStatement(NEXT_CONTENT_ID);
             ResultSet rs = next.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() throws SQLException {
        if (chunks != null) {
            chunks.close();
        }
    }
}
