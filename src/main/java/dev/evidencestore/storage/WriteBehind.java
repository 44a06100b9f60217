package dev.evidencestore.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * An upload's writes to its store, each running while the next block is read and hashed: the upload's own thread
 * reads into one of two buffers while a writer thread hands the other to the store (a file, a chunk row). At most
 * one write is in flight, so the store's handle is used by one thread at a time, in order, and an upload holds two
 * buffers of memory.
 */
final class WriteBehind<E extends Exception> {

    /**
     * Writes one block; {@code number} counts blocks from 0. A block 0 shorter than its buffer is the whole upload,
     * written on the upload's own thread, so a sink may hold it until the upload ends instead of writing it.
     */
    @FunctionalInterface
    interface Sink<E extends Exception> {
        void write(byte[] block, int length, int number) throws IOException, E;
    }

    /** As many threads as uploads stream at once, each with one write in flight. */
    private static final ExecutorService WRITERS = StoreThreads.named("store-writer");

    private final Sink<E> sink;
    private final Class<E> failure;
    private final int blockSize;
    private final byte[][] buffers;
    private Future<?> inFlight;
    private int number;

    /**
     * {@code failure}: the store's own checked failure, passed on to the upload as it is. {@code firstBlock}: the
     * first buffer's size ({@link UploadPolicy#firstBlock}), which may be less than a block.
     */
    WriteBehind(int blockSize, int firstBlock, Class<E> failure, Sink<E> sink) {
        this.sink = sink;
        this.failure = failure;
        this.blockSize = blockSize;
        // the second buffer only once a second block comes: most evidence is one short block
        this.buffers = new byte[][] {new byte[Math.min(firstBlock, blockSize)], null};
    }

    /** The buffer to read the next block into: not the one whose write may still be running. */
    byte[] nextBuffer() {
        if (buffers[number % 2] == null) {
            buffers[number % 2] = new byte[blockSize];
        }
        return buffers[number % 2];
    }

    /**
     * Writes the first {@code length} bytes of {@link #nextBuffer()} as the next block, once the previous is done. A
     * first block shorter than a whole one is the whole upload: it is written here, with no hand-over to pay for.
     */
    void send(int length) throws IOException, E {
        byte[] block = nextBuffer();
        int current = number++;
        if (current == 0 && length < block.length) {
            sink.write(block, length, current);
            return;
        }
        awaitInFlight();
        inFlight = WRITERS.submit(() -> {
            sink.write(block, length, current);
            return null;
        });
    }

    /**
     * Reads {@code in} to its end in blocks and writes each, then waits for the last write. A block short of full
     * is the end, so an upload shorter than one block takes one buffer, not a second to read nothing into.
     */
    void sendAll(InputStream in) throws IOException, E {
        int n;
        do {
            byte[] buffer = nextBuffer();
            n = in.readNBytes(buffer, 0, buffer.length);
            if (n == buffer.length && n < blockSize) {
                // more than the declared size came: the first block grows to a whole one, so that every block but
                // the last is whole (the postgres store finds its chunk rows by position)
                buffers[0] = Arrays.copyOf(buffer, blockSize);
                n += in.readNBytes(buffers[0], n, blockSize - n);
            }
            if (n > 0) {
                send(n);
            }
        } while (n == blockSize);
        awaitInFlight();
    }

    /** Waits for the last write; its failure is the upload's. */
    void awaitInFlight() throws IOException, E {
        if (inFlight == null) {
            return;
        }
        try {
            inFlight.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while a block was written");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (failure.isInstance(cause)) {
                throw failure.cast(cause);
            }
            throw WorkerFailure.rethrown(cause, "a block could not be written");
        } finally {
            inFlight = null;
        }
    }

    /** Before the store's handle is closed, rolled back or reused: no write may still be running on it. */
    void quiesce() {
        if (inFlight != null) {
            try {
                inFlight.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // the upload is failing already; this write's own failure adds nothing
            }
            inFlight = null;
        }
    }
}
