package dev.evidencestore.http;

import io.vertx.ext.web.RoutingContext;
import jakarta.ws.rs.core.StreamingOutput;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;

/**
 * A response body on its way to the client. A failure to write it means the client went away or stopped reading
 * (its connection closed), which is the client's doing, not a fault of the service: it is told apart from failures
 * to read the store, which the stream's source reports.
 *
 * <p>A failure to produce the body (a store's read, bytes found damaged) after the response head has gone out cannot
 * be answered any more: the transfer is cut short ({@link TransferWatch#cutShort}), so that the client never takes a
 * body that ends early for a complete one.
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

    /** A response body, written to the stream it is given. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private final OutputStream response;
    private final RoutingContext request;
    private final TransferWatch watch;
    private final long flushedAtStart;
    private long handedOver;

    private ClientDownload(OutputStream response) {
        this.response = response;
        this.request = TransferWatch.currentRequest().orElse(null);
        this.watch = request == null ? null : TransferWatch.of(request).orElse(null);
        this.flushedAtStart = watch == null ? 0 : watch.flushed();
    }

    /** {@code body} as the entity of a response, sent as described above. */
    public static StreamingOutput of(Body body) {
        return output -> new ClientDownload(output).send(body);
    }

    private void send(Body body) throws IOException {
        try {
            body.writeTo(this);
            // the last bytes too, while a failure still tells whose it is
            close();
        } catch (Interrupted clientLeft) {
            throw clientLeft;
        } catch (Throwable sourceFailed) {
            if (request != null) {
                TransferWatch.cutShort(request);
            }
            throw sourceFailed;
        }
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
