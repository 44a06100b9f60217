package dev.evidencestore.storage;

import software.amazon.awssdk.core.ResponseInputStream;

import java.io.FilterInputStream;
import java.io.IOException;

/**
 * A ranged GetObject being streamed. Closing a response early would read the rest of it just to reuse the
 * connection, which for a client that hung up on a large download means pulling gigabytes for nothing: so an
 * unfinished read aborts the connection instead.
 */
final class S3ObjectInput extends FilterInputStream {

    private final ResponseInputStream<?> response;
    private long remaining;

    S3ObjectInput(ResponseInputStream<?> response, long length) {
        super(response);
        this.response = response;
        this.remaining = length;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            remaining--;
        } else {
            remaining = 0;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        if (n > 0) {
            remaining -= n;
        } else if (n < 0) {
            remaining = 0;
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        remaining -= skipped;
        return skipped;
    }

    @Override
    public void close() throws IOException {
        if (remaining > 0) {
            response.abort();
        }
        super.close();
    }
}
