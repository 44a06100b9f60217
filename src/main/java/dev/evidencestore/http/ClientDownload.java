package dev.evidencestore.http;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A response body on its way to the client. A failure to write it means the client went away or stopped reading
 * (its connection closed), which is the client's doing, not a fault of the service: it is told apart from failures
 * to read the store, which the stream's source reports.
 */
public final class ClientDownload extends OutputStream {

    /** The connection closed before the body was complete. */
    public static final class Interrupted extends IOException {
        Interrupted(IOException cause) {
            super("the client's connection closed before the download was complete", cause);
        }
    }

    private final OutputStream response;

    public ClientDownload(OutputStream response) {
        this.response = response;
    }

    @Override
    public void write(int b) throws IOException {
        try {
            response.write(b);
        } catch (IOException e) {
            throw interrupted(e);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        try {
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
