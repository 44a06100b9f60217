package dev.evidencestore.storage;

import java.io.IOException;
import java.io.InputStream;

/**
 * The body of one PutObject that streams a whole blob of a declared size as the upload arrives, hashed as it is
 * read. Its last bytes are handed over only once the whole blob hashed to the declared digest and the upload proved
 * to end exactly there; otherwise reading fails, the request stops short of its Content-Length, and S3 stores nothing
 * for it. The body can be sent once: a retry finds it spent and fails.
 */
final class StreamedPutBody {

    private final MeasuredInput upload;
    private final long size;
    private boolean opened;
    private long sent;
    private StoredBlob checked;
    private Exception failure;

    StreamedPutBody(MeasuredInput upload, long size) {
        this.upload = upload;
        this.size = size;
    }

    /** The stream to send, the first time; a stream that fails, after that. */
    InputStream open() {
        if (opened) {
            return new Spent();
        }
        opened = true;
        return new Body();
    }

    /** The checked blob once every byte was handed over; null before. */
    StoredBlob checked() {
        return checked;
    }

    /** Throws what stopped the body (the client's read, a digest or size refused) as it was thrown, if anything did. */
    void throwFailure() throws IOException {
        if (failure instanceof IOException io) {
            throw io;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
    }

    private final class Body extends BlockInput {

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (sent == size) {
                return -1;
            }
            try {
                int n = upload.read(buffer, offset, (int) Math.min(length, size - sent));
                if (n < 0) {
                    throw new IOException("the upload ended after " + sent + " of its declared " + size + " bytes");
                }
                sent += n;
                if (sent == size) {
                    checkEnd();
                }
                return n;
            } catch (IOException | RuntimeException e) {
                failure = e;
                throw e;
            }
        }

        /** The declared size reached: the upload must end here and hash to its digest before the last bytes go. */
        private void checkEnd() throws IOException {
            if (upload.read() >= 0) {
                throw new IOException("the upload is longer than its declared " + size + " bytes");
            }
            checked = upload.finish();
        }
    }

    private static final class Spent extends InputStream {

        @Override
        public int read() throws IOException {
            throw new IOException("a streamed upload cannot be sent again");
        }
    }
}
