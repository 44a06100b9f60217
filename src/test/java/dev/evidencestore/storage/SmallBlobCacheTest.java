package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The cache in front of a filesystem store keeps the contract, and keeps only bytes that hash to their digest. */
class SmallBlobCacheTest extends BlobStoreContract {

    @TempDir
    Path root;

    private FilesystemBlobStore files;
    private SmallBlobCache store;

    @Override
    protected BlobStore store() {
        if (store == null) {
            files = new FilesystemBlobStore(root);
            store = new SmallBlobCache(files, 64 * 1024, 1024 * 1024);
        }
        return store;
    }

    @Override
    protected void assertNoLeftovers() throws IOException {
        try (Stream<Path> uploads = Files.list(root.resolve("uploads"))) {
            assertEquals(0, uploads.count(), "temp files left in uploads/");
        }
    }

    @Test
    void aCachedBlobIsServedWithoutTheStoreAndTheStoredBytesStayVisibleBehindIt() throws IOException {
        byte[] bytes = random(10_000);
        Digest digest = store().put(new ByteArrayInputStream(bytes), new UploadPolicy(Set.of(), 1 << 20)).digest();
        assertArrayEquals(bytes, read(store.open(digest, 0, bytes.length)));

        Path stored = files.pathOf(digest);
        byte[] rotten = bytes.clone();
        rotten[5000] ^= 1;
        Files.write(stored, rotten);

        assertArrayEquals(bytes, read(store.open(digest, 0, bytes.length)), "the copy that hashed to its digest");
        assertArrayEquals(new byte[] {bytes[4999], bytes[5000]}, read(store.open(digest, 4999, 2)));
        assertArrayEquals(rotten, read(store.stored().open(digest, 0, bytes.length)), "the scrub sees the store");
        assertSame(files, store.stored());
    }

    @Test
    void bytesThatDoNotHashToTheirDigestAreServedButNeverKept() throws IOException {
        byte[] bytes = random(2000);
        Digest digest = store().put(new ByteArrayInputStream(bytes), new UploadPolicy(Set.of(), 1 << 20)).digest();
        Path stored = files.pathOf(digest);
        byte[] rotten = bytes.clone();
        rotten[0] ^= 1;
        Files.write(stored, rotten);
        assertArrayEquals(rotten, read(store.open(digest, 0, bytes.length)));
        Files.write(stored, bytes);
        assertArrayEquals(bytes, read(store.open(digest, 0, bytes.length)));
        Files.write(stored, rotten);
        assertArrayEquals(bytes, read(store.open(digest, 0, bytes.length)), "kept once they hashed right");
        assertNotEquals(Digest.of(new ByteArrayInputStream(rotten)), digest);
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static byte[] read(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
