package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import org.apache.commons.codec.digest.DigestUtils;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * Reads a whole stored blob while hashing it, and hands out its last bytes only once they complete the digest.
 * Bytes that hash to something else end in {@link DamagedBlob} instead, so whoever passes on what it reads (a
 * download with a {@code Content-Length}) never delivers the complete wrong bytes: the transfer stops short.
 */
public final class CheckedInput extends BlockInput {

    /** Told what the bytes hashed to, just before the read fails. */
    @FunctionalInterface
    public interface Mismatch {
        void found(Digest computed);
    }

    private final InputStream in;
    private final Digest expected;
    private final Mismatch mismatch;
    private final MessageDigest sha256 = DigestUtils.getSha256Digest();
    private long remaining;

    /** {@code in} yields the blob's {@code size} bytes from its start. */
    public CheckedInput(InputStream in, Digest expected, long size, Mismatch mismatch) {
        this.in = in;
        this.expected = expected;
        this.remaining = size;
        this.mismatch = mismatch;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (remaining == 0) {
            return -1;
        }
        int n = in.read(buffer, offset, (int) Math.min(length, remaining));
        if (n < 0) {
            // the store holds fewer bytes than were recorded
            throw damaged(Digest.of(sha256.digest()));
        }
        sha256.update(buffer, offset, n);
        remaining -= n;
        if (remaining == 0) {
            Digest computed = Digest.of(sha256.digest());
            if (!computed.equals(expected)) {
                throw damaged(computed);
            }
        }
        return n;
    }

    private DamagedBlob damaged(Digest computed) {
        DamagedBlob damaged = new DamagedBlob(expected, computed);
        try {
            mismatch.found(computed);
        } catch (RuntimeException e) {
            damaged.addSuppressed(e);
        }
        return damaged;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
