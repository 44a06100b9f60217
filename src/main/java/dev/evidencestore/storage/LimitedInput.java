package dev.evidencestore.storage;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Ends a stored file's stream after a fixed number of bytes, for range reads. The kernel reads a file ahead into its
 * page cache, so nothing is gained by reading it ahead again ({@link PrefetchedInput}).
 */
final class LimitedInput extends FilterInputStream implements PrefetchedInput {

    private long remaining;

    LimitedInput(InputStream in, long length) {
        super(in);
        this.remaining = length;
    }

    @Override
    public int read() throws IOException {
        if (remaining <= 0) {
            return -1;
        }
        int b = in.read();
        if (b >= 0) {
            remaining--;
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (remaining <= 0) {
            return -1;
        }
        int n = in.read(buffer, offset, (int) Math.min(length, remaining));
        if (n > 0) {
            remaining -= n;
        }
        return n;
    }
}
