package dev.evidencestore.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads a stream one block ahead on a thread of its own, so that what the reader does with the current block (hash
 * it, compress it, send it) and what fetching the next one costs (a database query, an S3 read, and the hashing of a
 * checked read, {@code CheckedInput}) run on two cores. For the service's own whole reads (verifications, evidence
 * bundles) and for whole downloads past 1 MiB: above the hashing from files
 * ({@link BlobStore#hashesAheadOfSending()}), below it from S3; a download's fetcher waits for a slow client as its
 * sender does, and ends when the download is closed, finished, left or cut as stalled. At most three blocks are
 * held, the one being read, one ready and one being fetched, and their arrays are filled again rather than allocated
 * per block.
 *
 * <p>The source is only ever read and closed by the fetching thread, so a reader that stops early never closes it
 * under a read in progress (a PostgreSQL COPY, an S3 response).
 */
public final class ReadAhead extends InputStream {

    /** What a stored read is fetched in: PostgreSQL's chunk slice, and a response buffer. */
    public static final int BLOCK = 256 * 1024;

    private static final ExecutorService FETCHERS = StoreThreads.named("read-ahead");
    private static final Block END = new Block(new byte[0], 0);

    /** The first {@code length} bytes of {@code bytes} are the stream's next. */
    private record Block(byte[] bytes, int length) {
    }

    private final InputStream source;
    /** The first block's size; a source that fills it is longer than it said, and the rest comes in whole blocks. */
    private final int firstBlockSize;
    private final BlockingQueue<Object> ready = new ArrayBlockingQueue<>(1);
    /** Arrays the reader is done with, for the fetcher to fill again. */
    private final BlockingQueue<byte[]> spare = new ArrayBlockingQueue<>(2);
    /** Taken by whichever comes first: the fetcher, which then reads and closes the source, or a close before it. */
    private final AtomicBoolean sourceTaken = new AtomicBoolean();
    private final Future<?> fetcher;
    private Block block = END;
    private int position;
    private boolean ended;
    private volatile boolean closed;

    /** Reads {@code source} ahead, unless its store already fetches ahead of the reader ({@link PrefetchedInput}). */
    public static InputStream of(InputStream source, long length) {
        return source instanceof PrefetchedInput ? source : new ReadAhead(source, length);
    }

    /**
     * {@code length}: how many bytes the source holds; a source shorter than a block is read in one array of
     * {@link FirstBlock}'s size, so a bundle of 64 KiB artifacts does not allocate three 256 KiB blocks for each.
     */
    public ReadAhead(InputStream source, long length) {
        this.source = source;
        this.firstBlockSize = FirstBlock.size(length, BLOCK);
        this.fetcher = FETCHERS.submit(this::fetchAll);
    }

    private void fetchAll() {
        if (!sourceTaken.compareAndSet(false, true)) {
            return;
        }
        try (source) {
            int size = firstBlockSize;
            while (!closed) {
                byte[] bytes = spare.poll();
                if (bytes == null || bytes.length < size) {
                    bytes = new byte[size];
                }
                int n = source.readNBytes(bytes, 0, size);
                if (n > 0) {
                    ready.put(new Block(bytes, n));
                }
                if (n < size) {
                    ready.put(END);
                    return;
                }
                size = BLOCK;
            }
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
        if (position == block.length() && !nextBlock()) {
            return -1;
        }
        return block.bytes()[position++] & 0xff;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (position == block.length() && !nextBlock()) {
            return -1;
        }
        int n = Math.min(length, block.length() - position);
        System.arraycopy(block.bytes(), position, buffer, offset, n);
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
        if (block != END) {
            spare.offer(block.bytes());
        }
        block = (Block) next;
        position = 0;
        ended = block == END;
        return !ended;
    }

    /**
     * Stops the fetching (which may be blocked handing over a block); the fetcher closes the source once its read in
     * progress returns, or it is closed here when the fetcher never started.
     */
    @Override
    public void close() throws IOException {
        closed = true;
        fetcher.cancel(true);
        ready.clear();
        spare.clear();
        if (sourceTaken.compareAndSet(false, true)) {
            source.close();
        }
    }
}
