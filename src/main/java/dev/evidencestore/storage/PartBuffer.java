package dev.evidencestore.storage;

import org.apache.commons.codec.digest.DigestUtils;
import software.amazon.awssdk.core.sync.RequestBody;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;

/**
 * One part of an upload held in memory. An upload's first starts small and grows to the part size only for blobs
 * that reach it, so a small upload does not allocate a whole part; the buffers of the parts after it are whole from
 * the start, and each buffer is reused from part to part.
 */
final class PartBuffer {

    private static final int INITIAL = 64 * 1024;

    private final int capacity;
    private byte[] bytes;
    private int length;

    /** An upload's first part, starting at the size {@link UploadPolicy#firstBlock} gives, which may be less. */
    static PartBuffer first(int capacity, UploadPolicy policy) {
        return new PartBuffer(capacity, policy.firstBlock(Math.min(INITIAL, capacity)));
    }

    private PartBuffer(int capacity, int initial) {
        this.capacity = capacity;
        this.bytes = new byte[initial];
    }

    /** A buffer of the whole part size at once, for parts after a first that filled its own. */
    static PartBuffer whole(int capacity) {
        return new PartBuffer(capacity, capacity);
    }

    /** Reads the next part, up to the part size; returns whether it read anything. */
    boolean fill(InputStream in) throws IOException {
        length = 0;
        while (length < capacity) {
            if (length == bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(2L * bytes.length, capacity));
            }
            int n = in.read(bytes, length, bytes.length - length);
            if (n < 0) {
                break;
            }
            length += n;
        }
        return length > 0;
    }

    /** Whether the part reached the part size, so that more of the stream may follow. */
    boolean full() {
        return length == capacity;
    }

    int length() {
        return length;
    }

    /** The part as a request body; the SDK may read it more than once (signing, retries), so it is not copied. */
    RequestBody body() {
        return RequestBody.fromContentProvider(this::stream, length, "application/octet-stream");
    }

    /** The part's bytes, to stream ahead of the rest of an upload. */
    InputStream stream() {
        return new ByteArrayInputStream(bytes, 0, length);
    }

    /** Base64 SHA-256 of the part, as S3's {@code x-amz-checksum-sha256} wants it. */
    String sha256() {
        MessageDigest sha256 = DigestUtils.getSha256Digest();
        sha256.update(bytes, 0, length);
        return Base64.getEncoder().encodeToString(sha256.digest());
    }
}
