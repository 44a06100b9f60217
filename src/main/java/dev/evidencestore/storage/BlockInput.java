package dev.evidencestore.storage;

import java.io.IOException;
import java.io.InputStream;

/**
 * A stream that works in blocks: its one-byte read is a block read of one byte, so whatever a subclass checks or
 * counts per block holds for single bytes too.
 */
abstract class BlockInput extends InputStream {

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public abstract int read(byte[] buffer, int offset, int length) throws IOException;
}
