package dev.evidencestore.storage;

import javax.sql.DataSource;
import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The short blobs of the postgres store (one block each, hashed and checked already), committed a group at a time:
 * the first upload to arrive writes its row at once, and the uploads that arrive while it commits queue; the next
 * of them then writes every queued row in one round trip and one transaction, as PostgreSQL does with its own log.
 * Nothing waits for company, and under load one commit serves many uploads instead of one each. Each row inserts
 * its content row first and its chunk only when the digest was new, so a second copy of stored bytes (in the same
 * group too) leaves nothing behind; a failing group fails every upload in it, none of which is then visible.
 *
 * <p>A commit wakes only the uploads of its group, and the first still queued to write the next: waking every
 * waiting upload sent the ones that arrived during the commit back to sleep at once, and a thread's sleep and wake
 * are dear on a virtual machine (a profile of batch uploads: a tenth of the service's CPU in them).
 */
final class ShortBlobCommits {

    private static final String INSERT = """
            WITH id AS (SELECT nextval('blob_content_id_seq') AS content_id),
                 content AS (INSERT INTO blob_content (digest, content_id, size, chunk_size)
                             SELECT ?, content_id, ?, ? FROM id ON CONFLICT (digest) DO NOTHING
                             RETURNING content_id)
            INSERT INTO blob_chunk (content_id, seq, data) SELECT content_id, 0, ? FROM content""";

    /** A short upload's bytes, held until its group commits. */
    record Row(StoredBlob blob, byte[] block, int length) {
    }

    private final DataSource dataSource;
    private final int chunkSize;
    private final int maxRows;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiting> queue = new ArrayDeque<>();
    private boolean writing;

    /** {@code maxRows}: the most rows one transaction writes, which bounds how long its uploads wait for it. */
    ShortBlobCommits(DataSource dataSource, int chunkSize, int maxRows) {
        this.dataSource = dataSource;
        this.chunkSize = chunkSize;
        this.maxRows = maxRows;
    }

    /** Returns once {@code row} is committed, by this thread or by the one that wrote its group. */
    void commit(Row row) throws SQLException {
        lock.lock();
        try {
            Waiting waiting = new Waiting(row, lock.newCondition());
            queue.add(waiting);
            while (!waiting.done) {
                if (writing) {
                    waiting.woken.awaitUninterruptibly();
                } else {
                    writeGroup();
                }
            }
            if (waiting.failure != null) {
                throw waiting.failure;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Called holding the lock, which it lets go while the group is written. */
    private void writeGroup() {
        List<Waiting> group = new ArrayList<>();
        while (!queue.isEmpty() && group.size() < maxRows) {
            group.add(queue.poll());
        }
        writing = true;
        lock.unlock();
        SQLException failure = null;
        try {
            write(group);
        } catch (SQLException e) {
            failure = e;
        } catch (RuntimeException | Error e) {
            failure = new SQLException("short blobs could not be written", e);
        } finally {
            lock.lock();
            writing = false;
            for (Waiting waiting : group) {
                waiting.failure = failure;
                waiting.done = true;
                waiting.woken.signal();
            }
            if (!queue.isEmpty()) {
                queue.peek().woken.signal();
            }
        }
    }

    private void write(List<Waiting> group) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try (PreparedStatement insert = connection.prepareStatement(INSERT)) {
                for (Waiting waiting : group) {
                    Row row = waiting.row;
                    insert.setString(1, row.blob().digest().toString());
                    insert.setLong(2, row.blob().size());
                    insert.setInt(3, chunkSize);
                    insert.setBinaryStream(4, new ByteArrayInputStream(row.block(), 0, row.length()), row.length());
                    insert.addBatch();
                }
                insert.executeBatch();
                connection.commit();
            } finally {
                // after a failure, before autocommit returns: it would commit the rows so far
                connection.rollback();
                connection.setAutoCommit(true);
            }
        }
    }

    private static final class Waiting {
        private final Row row;
        private final Condition woken;
        private boolean done;
        private SQLException failure;

        Waiting(Row row, Condition woken) {
            this.row = row;
            this.woken = woken;
        }
    }
}
