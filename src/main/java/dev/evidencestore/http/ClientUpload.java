package dev.evidencestore.http;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A request body as it arrives from the client. A failure to read it means the client went away mid-upload, which
 * is the client's doing, not a fault of the service: it is told apart from failures of the store.
 */
public final class ClientUpload extends FilterInputStream {

    /** The client stopped sending before the body was complete. */
    public static final class Interrupted extends IOException {
        Interrupted(IOException cause) {
            super("the client stopped sending the upload", cause);
        }
    }

    public ClientUpload(InputStream body) {
        super(body);
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (IOException e) {
            throw new Interrupted(e);
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            return super.read(buffer, offset, length);
        } catch (IOException e) {
            throw new Interrupted(e);
        }
    }
}
