package dev.evidencestore.storage;

import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

/**
 * Notes as objects under a prefix of a bucket, written once: a PutObject with {@code If-None-Match: *}, which S3
 * refuses (412) when the key exists, so a note is never overwritten even by two instances at once. The key is looked
 * up first too, since not every S3-compatible service honours the condition. Only S3 Object Lock (a retention
 * period on the bucket) keeps someone holding delete rights from removing an object; see docs/integrity.md.
 */
public final class S3Anchor implements Anchor, Closeable {

    private static final int NOT_FOUND = 404;
    private static final int CONFLICT = 409;
    private static final int PRECONDITION_FAILED = 412;

    private final S3Client s3;
    private final String bucket;
    private final String prefix;

    public S3Anchor(S3Client s3, String bucket, String prefix) {
        this.s3 = s3;
        this.bucket = bucket;
        this.prefix = prefix;
    }

    @Override
    public void publish(String name, byte[] note) throws IOException {
        if (holds(name)) {
            sameAs(name, note);
            return;
        }
        String key = prefix + name;
        try {
            // a bucket with Object Lock needs a checksum on every PUT; S3 also checks the bytes against it. The
            // notes are UTF-8, but a Content-Type with a charset parameter fails S3Proxy's signature check
            s3.putObject(b -> b.bucket(bucket).key(key).ifNoneMatch("*").contentType("text/plain")
                    .checksumSHA256(sha256(note)), RequestBody.fromBytes(note));
        } catch (S3Exception e) {
            if (e.statusCode() != PRECONDITION_FAILED && e.statusCode() != CONFLICT) {
                throw new IOException("could not publish " + locate(name), e);
            }
            sameAs(name, note);
        } catch (SdkException e) {
            throw new IOException("could not publish " + locate(name), e);
        }
    }

    private void sameAs(String name, byte[] note) throws IOException {
        if (!Arrays.equals(read(name), note)) {
            throw new FileAlreadyExistsException(locate(name), null,
                    "holds other bytes than the note published now; a published note is never overwritten");
        }
    }

    @Override
    public boolean holds(String name) throws IOException {
        try {
            s3.headObject(b -> b.bucket(bucket).key(prefix + name));
            return true;
        } catch (S3Exception e) {
            if (e.statusCode() == NOT_FOUND) {
                return false;
            }
            throw new IOException("could not look up " + locate(name), e);
        } catch (SdkException e) {
            throw new IOException("could not look up " + locate(name), e);
        }
    }

    @Override
    public List<String> names(String after, int limit) throws IOException {
        try {
            return s3.listObjectsV2(b -> b.bucket(bucket).prefix(prefix).maxKeys(limit)
                            .startAfter(after.isEmpty() ? null : prefix + after))
                    .contents().stream().map(S3Object::key).map(key -> key.substring(prefix.length())).toList();
        } catch (SdkException e) {
            throw new IOException("could not list " + locate(""), e);
        }
    }

    @Override
    public byte[] read(String name) throws IOException {
        try (ResponseInputStream<GetObjectResponse> in = s3.getObject(b -> b.bucket(bucket).key(prefix + name))) {
            byte[] bytes = in.readNBytes(MAX_NOTE + 1);
            if (bytes.length > MAX_NOTE) {
                in.abort(); // not worth draining the rest of the connection for
                throw new IOException(locate(name) + " is larger than " + MAX_NOTE + " bytes: not a signed note");
            }
            return bytes;
        } catch (SdkException e) {
            throw new IOException("could not read " + locate(name), e);
        }
    }

    @Override
    public String locate(String name) {
        return "s3://" + bucket + "/" + prefix + name;
    }

    private static String sha256(byte[] bytes) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public void close() {
        s3.close();
    }
}
