package dev.evidencestore.http;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;

/**
 * A response body on its way to the client. A failure to write it means the client went away or stopped reading
 * (its connection closed), which is the client's doing, not a fault of the service: it is told apart from failures
 * to read the store, which the stream's source reports.
 *
 * <p>It also keeps what a download holds in memory to about {@link #IN_FLIGHT} beyond the response's own buffer:
 * it writes on only once the socket has taken the rest ({@link TransferWatch#awaitRoom}). Vert.x alone lets a worker
 * queue buffer after buffer for a client that reads nothing; 64 of them exhausted a 128 MB heap's direct memory.
 */
public final class ClientDownload extends OutputStream {

    /** Bytes handed over and not yet taken by the socket past which a write waits. */
    static final long IN_FLIGHT = 256 * 1024;

    /** The connection closed before the body was complete. */
    public static final class Interrupted extends IOException {
        Interrupted(IOException cause) {
            super("the client's connection closed before the download was complete", cause);
        }
    }

    private final OutputStream response;
    private final TransferWatch watch;
    private final long flushedAtStart;
    private long handedOver;

    public ClientDownload(OutputStream response) {
        this.response = response;
        this.watch = TransferWatch.ofCurrentRequest().orElse(null);
        this.flushedAtStart = watch == null ? 0 : watch.flushed();
    }

    @Override
    public void write(int b) throws IOException {
        try {
            awaitRoom();
            handedOver++;
            response.write(b);
        } catch (IOException e) {
            throw interrupted(e);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        try {
            awaitRoom();
            handedOver += length;
            response.write(bytes, offset, length);
        } catch (IOException e) {
            throw interrupted(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            response.flush();
        } catch (IOException e) {
            throw interrupted(e);
        }
    }

    /**
     * Waits while more than {@link #IN_FLIGHT} of what was written has not gone out. What the response's buffer
     * holds goes out only when it is flushed, so it is flushed first, and waiting always ends: the socket takes
     * bytes, or the connection closes (at the latest when it is seen stalled).
     */
    private void awaitRoom() throws IOException {
        if (watch == null || handedOver - (watch.flushed() - flushedAtStart) <= IN_FLIGHT) {
            return;
        }
        response.flush();
        try {
            if (!watch.awaitRoom(flushedAtStart, handedOver, IN_FLIGHT)) {
                throw new IOException("the connection closed");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while the client took the download");
        }
    }

    /**
     * The response stream is closed here, quietly, so that the framework's own closing of it after the body finds
     * nothing more to write, and no second failure is reported for the same leaving.
     */
    private Interrupted interrupted(IOException e) {
        try {
            response.close();
        } catch (IOException alreadyGone) {
            e.addSuppressed(alreadyGone);
        }
        return new Interrupted(e);
    }

    @Override
    public void close() throws IOException {
        try {
            response.close();
        } catch (IOException e) {
            throw new Interrupted(e);
        }
    }
}
