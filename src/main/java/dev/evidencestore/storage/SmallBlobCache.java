package dev.evidencestore.storage;

import com.github.benmanes.caffeine.cache.Cache;
import dev.evidencestore.Caches;
import dev.evidencestore.domain.Digest;
import org.apache.commons.codec.digest.DigestUtils;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Small blobs kept in memory in front of any backend: content-addressed bytes never change, so a copy is never
 * stale, and a read of a cached blob asks neither the database nor S3 for anything. Bytes enter only once they hash
 * to their digest, so the cache never holds what the store holds wrongly. It knows nothing of the damaged list:
 * every reader checks that first ({@code BlobIntegrity.refuseIfDamaged}), so a blob found damaged is refused even
 * while its good copy is cached. Whoever must look at the stored bytes themselves (the scrub, a verification) reads
 * {@link #stored()}.
 */
public final class SmallBlobCache implements BlobStore {

    private final BlobStore store;
    private final long maxBlobSize;
    private final Cache<Digest, byte[]> blobs;

    /** Keeps blobs of at most {@code maxBlobSize} bytes, {@code memory} bytes of them in all. */
    public SmallBlobCache(BlobStore store, long maxBlobSize, long memory) {
        this.store = store;
        this.maxBlobSize = maxBlobSize;
        this.blobs = Caches.builder().maximumWeight(memory)
                .weigher((Digest digest, byte[] bytes) -> bytes.length).build();
    }

    @Override
    public StoredBlob put(InputStream content, UploadPolicy policy) throws IOException {
        return store.put(content, policy);
    }

    @Override
    public long heldOfUpload(long declaredSize, boolean oneDigest) {
        return store.heldOfUpload(declaredSize, oneDigest);
    }

    @Override
    public OptionalLong size(Digest digest) throws IOException {
        byte[] cached = blobs.getIfPresent(digest);
        return cached != null ? OptionalLong.of(cached.length) : store.size(digest);
    }

    @Override
    public InputStream open(Digest digest, long offset, long length) throws IOException {
        byte[] cached = blobs.getIfPresent(digest);
        if (cached != null) {
            return new ByteArrayInputStream(cached, (int) Math.min(offset, cached.length),
                    (int) Math.min(length, cached.length - Math.min(offset, cached.length)));
        }
        if (offset != 0 || length > maxBlobSize) {
            return store.open(digest, offset, length);
        }
        byte[] bytes;
        try (InputStream in = store.open(digest, 0, length)) {
            bytes = in.readNBytes((int) length);
        }
        // only the whole blob hashes to its digest: a prefix, or damaged bytes, are served but not kept
        if (Digest.of(DigestUtils.sha256(bytes)).equals(digest)) {
            blobs.put(digest, bytes);
        }
        return new ByteArrayInputStream(bytes);
    }

    @Override
    public Optional<byte[]> inMemory(Digest digest) {
        return Optional.ofNullable(blobs.getIfPresent(digest));
    }

    @Override
    public int removeAbandonedUploads(Duration idle) throws IOException {
        return store.removeAbandonedUploads(idle);
    }

    @Override
    public boolean hashesAheadOfSending() {
        return store.hashesAheadOfSending();
    }

    @Override
    public int smallWritesAtOnce() {
        return store.smallWritesAtOnce();
    }

    @Override
    public BlobStore stored() {
        return store;
    }
}
