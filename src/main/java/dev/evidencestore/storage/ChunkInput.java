package dev.evidencestore.storage;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Streams a byte range of a chunked blob, fetching one chunk row at a time, so memory stays at one chunk
 * whatever the blob size, and no connection is held between reads.
 */
final class ChunkInput extends BlockInput {

    private static final String CHUNK = "SELECT data FROM blob_chunk WHERE content_id = ? AND seq = ?";

    private final DataSource dataSource;
    private final PostgresBlobStore.Content content;
    private long position;
    private long remaining;
    private byte[] chunk = new byte[0];
    private int chunkOffset;

    ChunkInput(DataSource dataSource, PostgresBlobStore.Content content, long offset, long length) {
        this.dataSource = dataSource;
        this.content = content;
        this.position = offset;
        this.remaining = length;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (remaining <= 0) {
            return -1;
        }
        if (chunkOffset >= chunk.length) {
            fetch();
        }
        int n = (int) Math.min(Math.min(length, chunk.length - chunkOffset), remaining);
        System.arraycopy(chunk, chunkOffset, buffer, offset, n);
        chunkOffset += n;
        position += n;
        remaining -= n;
        return n;
    }

    private void fetch() throws IOException {
        int seq = (int) (position / content.chunkSize());
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(CHUNK)) {
            query.setLong(1, content.id());
            query.setInt(2, seq);
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    throw new IOException("chunk " + seq + " of content " + content.id() + " is missing");
                }
                chunk = rs.getBytes(1);
            }
        } catch (SQLException e) {
            throw new IOException("the postgres blob store failed to read a chunk", e);
        }
        chunkOffset = (int) (position % content.chunkSize());
        if (chunkOffset >= chunk.length) {
            throw new IOException("chunk " + seq + " of content " + content.id() + " is shorter than recorded");
        }
    }
}
