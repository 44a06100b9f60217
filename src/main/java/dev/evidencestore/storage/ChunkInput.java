package dev.evidencestore.storage;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Streams a byte range of a chunked blob, fetching a slice of one chunk row per query, so memory stays at one slice
 * whatever the blob size and the chunk size, and no connection is held between reads: for ranges of one slice, and
 * for reads beyond those the store lets stream ({@link ChunkStream}). A download whose client stops reading holds
 * its slice until it is cut off as stalled: with 64 of them, whole 1 MiB chunks filled a 128 MiB heap.
 */
final class ChunkInput extends BlockInput {

    /** PostgreSQL reads only the TOAST pages of the slice asked for (the chunks are stored uncompressed). */
    private static final String CHUNK = "SELECT substring(data FROM ? FOR ?) FROM blob_chunk WHERE content_id = ? AND seq = ?";

    private final DataSource dataSource;
    private final PostgresBlobStore.Content content;
    private final int slice;
    private long position;
    private long remaining;
    private byte[] chunk = new byte[0];
    private int chunkOffset;

    ChunkInput(DataSource dataSource, PostgresBlobStore.Content content, long offset, long length, int slice) {
        this.dataSource = dataSource;
        this.content = content;
        this.slice = slice;
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
        int from = (int) (position % content.chunkSize());
        int wanted = (int) Math.min(slice, Math.min(remaining, content.chunkSize() - from));
        try (Connection connection = dataSource.getConnection();
             PreparedStatement query = connection.prepareStatement(CHUNK)) {
            query.setInt(1, from + 1);
            query.setInt(2, wanted);
            query.setLong(3, content.id());
            query.setInt(4, seq);
            try (ResultSet rs = query.executeQuery()) {
                if (!rs.next()) {
                    throw new IOException("chunk " + seq + " of content " + content.id() + " is missing");
                }
                chunk = rs.getBytes(1);
            }
        } catch (SQLException e) {
            throw new IOException("the postgres blob store failed to read a chunk", e);
        }
        chunkOffset = 0;
        if (chunk.length == 0) {
            throw new IOException("chunk " + seq + " of content " + content.id() + " is shorter than recorded");
        }
    }
}
