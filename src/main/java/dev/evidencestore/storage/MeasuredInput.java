package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import org.apache.commons.codec.digest.DigestUtils;

import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;

/**
 * Hashes and counts bytes as they stream through, so a blob is hashed in the same pass that stores it, and
 * stops the stream as soon as it passes the size limit.
 */
final class MeasuredInput extends BlockInput {

    private final InputStream in;
    private final MessageDigest sha256 = DigestUtils.getSha256Digest();
    private final UploadPolicy policy;
    private long size;
    private IOException readFailure;

    MeasuredInput(InputStream in, UploadPolicy policy) {
        this.in = in;
        this.policy = policy;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n;
        try {
            n = in.read(buffer, offset, length);
        } catch (IOException e) {
            readFailure = e;
            throw e;
        }
        if (n > 0) {
            size += n;
            if (size > policy.maxSize()) {
                throw policy.tooLarge();
            }
            sha256.update(buffer, offset, n);
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    @Override
    public long skip(long n) {
        throw new UnsupportedOperationException("every byte of a blob must be hashed");
    }

    /** Whether {@code failure} is the one reading the upload failed with: the client's doing, not the store's. */
    boolean failedReading(IOException failure) {
        return failure == readFailure;
    }

    /** The digest and size of everything read; checks the declared digests. Call once, at end of stream. */
    StoredBlob finish() {
        StoredBlob blob = new StoredBlob(Digest.of(sha256.digest()), size);
        policy.check(blob);
        return blob;
    }
}
