package dev.evidencestore.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Reads a stream one block ahead on a thread of its own, so that the next block of stored bytes (a database query, an
 * S3 read) is fetched while the reader hashes or compresses the current one. For the service's own whole reads
 * (verifications, evidence bundles), never for a client's download, whose pace the client sets: at most three blocks
 * are held, the one being read, one ready and one being fetched.
 */
public final class ReadAhead extends InputStream {

    /** What a stored read is fetched in: PostgreSQL's chunk slice, and a response buffer. */
    public static final int BLOCK = 256 * 1024;

    private static final ExecutorService FETCHERS = StoreThreads.named("read-ahead");
    private static final byte[] END = new byte[0];

    private final InputStream source;
    private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(1);
    private final Future<?> fetcher;
    private byte[] block = new byte[0];
    private int position;
    private boolean ended;
    private volatile boolean closed;

    /** Reads {@code source} ahead, unless its store already fetches ahead of the reader ({@link PrefetchedInput}). */
    public static InputStream of(InputStream source) {
        return source instanceof PrefetchedInput ? source : new ReadAhead(source);
    }

    public ReadAhead(InputStream source) {
        this.source = source;
        this.fetcher = FETCHERS.submit(this::fetchAll);
    }

    private void fetchAll() {
        try {
            byte[] next;
            do {
                next = source.readNBytes(BLOCK);
                ready.put(next.length == 0 ? END : next);
            } while (next.length > 0 && !closed);
        } catch (IOException | RuntimeException e) {
            offer(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void offer(Exception failure) {
        try {
            ready.put(failure);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public int read() throws IOException {
        if (position == block.length && !nextBlock()) {
            return -1;
        }
        return block[position++] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (position == block.length && !nextBlock()) {
            return -1;
        }
        int n = Math.min(length, block.length - position);
        System.arraycopy(block, position, buffer, offset, n);
        position += n;
        return n;
    }

    private boolean nextBlock() throws IOException {
        if (ended) {
            return false;
        }
        Object next;
        try {
            next = ready.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for stored bytes");
        }
        if (next instanceof IOException failure) {
            throw failure;
        }
        if (next instanceof RuntimeException failure) {
            throw failure;
        }
        block = (byte[]) next;
        position = 0;
        ended = block == END;
        return !ended;
    }

    /** Stops the fetching (which may be blocked handing over a block) and closes the source. */
    @Override
    public void close() throws IOException {
        closed = true;
        fetcher.cancel(true);
        ready.clear();
        source.close();
    }
}
