package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;
import dev.evidencestore.support.Concurrently;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The one contract every {@link BlobStore} backend must pass, the way distribution's storage drivers share one
 * suite. A backend's test extends this class and supplies a store whose chunk or buffer boundaries are small,
 * so that the range and streaming cases cross them.
 */
public abstract class BlobStoreContract {

    /** Bigger than the chunk size the backends are tested with, and not a multiple of it. */
    static final int MULTI_CHUNK = 10_000 + 123;
    static final long LIMIT = 1_000_000;

    protected abstract BlobStore store();

    /** Called after a refused or failed upload: the backend must have kept nothing of it. */
    protected abstract void assertNoLeftovers() throws Exception;

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size * 31L + System.nanoTime()).nextBytes(bytes);
        return bytes;
    }

    private StoredBlob put(byte[] bytes, Digest... expected) throws IOException {
        return store().put(new ByteArrayInputStream(bytes), new UploadPolicy(Set.of(expected), LIMIT));
    }

    private byte[] read(Digest digest, long offset, long length) throws IOException {
        try (InputStream in = store().open(digest, offset, length)) {
            return in.readAllBytes();
        }
    }

    @Test
    void storesBytesUnderTheirSha256() throws IOException {
        StoredBlob blob = put("abc".getBytes());
        assertEquals("sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", blob.digest().toString());
        assertEquals(3, blob.size());
        assertEquals(OptionalLong.of(3), store().size(blob.digest()));
        assertArrayEquals("abc".getBytes(), read(blob.digest(), 0, 3));
    }

    @Test
    void storesTheEmptyBlob() throws IOException {
        StoredBlob blob = put(new byte[0]);
        assertEquals("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", blob.digest().toString());
        assertEquals(OptionalLong.of(0), store().size(blob.digest()));
        try (InputStream in = store().open(blob.digest())) {
            assertEquals(0, in.readAllBytes().length);
        }
    }

    /**
     * The declared size only sizes the first buffer: a blob of exactly that size, one whose declaration was too
     * small (its first buffer fills and whole blocks follow) and one whose declaration was too large are all stored
     * whole under their own digest.
     */
    @Test
    void aDeclaredSizeOnlySizesTheFirstBuffer() throws IOException {
        for (int declared : new int[] {MULTI_CHUNK * 3, 100, MULTI_CHUNK * 5, 0}) {
            byte[] bytes = random(MULTI_CHUNK * 3);
            Digest digest = Digest.of(DigestUtils.sha256(bytes));
            StoredBlob blob = store().put(new ByteArrayInputStream(bytes),
                    new UploadPolicy(Set.of(digest), LIMIT, declared));
            assertEquals(new StoredBlob(digest, bytes.length), blob, "declared " + declared);
            assertArrayEquals(bytes, read(digest, 0, bytes.length), "declared " + declared);
        }
    }

    @Test
    void streamsBlobsSpanningManyChunks() throws IOException {
        byte[] bytes = random(MULTI_CHUNK * 7);
        StoredBlob blob = put(bytes);
        assertEquals("sha256:" + DigestUtils.sha256Hex(bytes), blob.digest().toString());
        try (InputStream in = store().open(blob.digest())) {
            assertArrayEquals(bytes, in.readAllBytes());
        }
    }

    @Test
    void readsEveryKindOfRange() throws IOException {
        byte[] bytes = random(MULTI_CHUNK);
        Digest digest = put(bytes).digest();
        long[][] ranges = {{0, 1}, {0, MULTI_CHUNK}, {999, 2}, {1000, 1000}, {4095, 4098}, {MULTI_CHUNK - 1, 1},
            {7, 0}, {2500, 7000}};
        for (long[] r : ranges) {
            byte[] expected = Arrays.copyOfRange(bytes, (int) r[0], (int) (r[0] + r[1]));
            assertArrayEquals(expected, read(digest, r[0], r[1]), "range " + r[0] + "+" + r[1]);
        }
    }

    @Test
    void aSecondPutOfTheSameBytesIsHarmless() throws IOException {
        byte[] bytes = random(MULTI_CHUNK);
        StoredBlob first = put(bytes);
        StoredBlob second = put(bytes, first.digest());
        assertEquals(first, second);
        assertArrayEquals(bytes, read(first.digest(), 0, bytes.length));
    }

    @Test
    void concurrentPutsOfTheSameBytesAllSucceedWithOneBlob() throws Exception {
        byte[] bytes = random(MULTI_CHUNK * 3);
        List<Callable<StoredBlob>> uploads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            uploads.add(() -> put(bytes));
        }
        List<StoredBlob> results = Concurrently.run(uploads);
        assertEquals(1, results.stream().distinct().count());
        assertArrayEquals(bytes, read(results.get(0).digest(), 0, bytes.length));
        assertNoLeftovers();
    }

    /**
     * Most evidence is shorter than a block and declares its size, so the whole upload is one short first block
     * (which the postgres store writes with its content row in one statement): racing puts of it, and a wrong
     * digest, behave as for long blobs.
     */
    @Test
    void shortBlobsWithADeclaredSizeRaceAndRefuseAsLongOnesDo() throws Exception {
        byte[] bytes = random(500);
        Digest digest = Digest.of(DigestUtils.sha256(bytes));
        List<Callable<StoredBlob>> uploads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            uploads.add(() -> store().put(new ByteArrayInputStream(bytes),
                    new UploadPolicy(Set.of(digest), LIMIT, bytes.length)));
        }
        List<StoredBlob> results = Concurrently.run(uploads);
        assertEquals(List.of(new StoredBlob(digest, 500)), results.stream().distinct().toList());
        assertArrayEquals(bytes, read(digest, 0, bytes.length));
        byte[] other = random(400);
        assertThrows(DigestMismatch.class, () -> store().put(new ByteArrayInputStream(other),
                new UploadPolicy(Set.of(digest), LIMIT, other.length)));
        assertEquals(OptionalLong.empty(), store().size(Digest.of(DigestUtils.sha256(other))));
        assertNoLeftovers();
    }

    /**
     * Many short uploads finishing together, some of the same bytes (the postgres store commits such uploads a
     * group at a time, a second copy in the same group included): each is stored whole under its own digest.
     */
    @Test
    void manyShortBlobsAtOnceAreEachStoredWhole() throws Exception {
        List<byte[]> contents = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            contents.add(random(100 + 37 * i));
        }
        List<Callable<StoredBlob>> uploads = new ArrayList<>();
        for (int i = 0; i < 48; i++) {
            byte[] bytes = contents.get(i % contents.size());
            uploads.add(() -> store().put(new ByteArrayInputStream(bytes), new UploadPolicy(Set.of(), LIMIT,
                    bytes.length)));
        }
        List<StoredBlob> results = Concurrently.run(uploads);
        for (int i = 0; i < results.size(); i++) {
            byte[] bytes = contents.get(i % contents.size());
            Digest digest = Digest.of(DigestUtils.sha256(bytes));
            assertEquals(new StoredBlob(digest, bytes.length), results.get(i));
            assertArrayEquals(bytes, read(digest, 0, bytes.length));
        }
        assertNoLeftovers();
    }

    @Test
    void refusesBytesThatDisagreeWithTheDeclaredDigest() throws Exception {
        byte[] bytes = random(MULTI_CHUNK);
        Digest wrong = Digest.parse("sha256:" + DigestUtils.sha256Hex("something else"));
        DigestMismatch mismatch = assertThrows(DigestMismatch.class, () -> put(bytes, wrong));
        assertEquals(wrong, mismatch.declared());
        assertEquals(Digest.parse("sha256:" + DigestUtils.sha256Hex(bytes)), mismatch.computed());
        assertEquals(bytes.length, mismatch.size());
        assertEquals(OptionalLong.empty(), store().size(Digest.parse("sha256:" + DigestUtils.sha256Hex(bytes))));
        assertNoLeftovers();
    }

    @Test
    void refusesBlobsOverTheLimitAndKeepsNothing() throws Exception {
        byte[] bytes = random((int) LIMIT + 1);
        BlobTooLarge tooLarge = assertThrows(BlobTooLarge.class, () -> put(bytes));
        assertEquals(LIMIT, tooLarge.maxSize());
        assertEquals(OptionalLong.empty(), store().size(Digest.parse("sha256:" + DigestUtils.sha256Hex(bytes))));
        assertNoLeftovers();
    }

    @Test
    void acceptsABlobOfExactlyTheLimit() throws IOException {
        byte[] bytes = random((int) LIMIT);
        assertEquals(LIMIT, put(bytes).size());
    }

    @Test
    void keepsNothingOfAStreamThatBreaksOff() throws Exception {
        byte[] head = random(MULTI_CHUNK * 2);
        InputStream breaking = new SequenceInputStream(new ByteArrayInputStream(head), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("client went away");
            }
        });
        assertThrows(IOException.class, () -> store().put(breaking, UploadPolicy.unchecked(LIMIT)));
        assertEquals(OptionalLong.empty(), store().size(Digest.parse("sha256:" + DigestUtils.sha256Hex(head))));
        assertNoLeftovers();
    }

    /** A bug (an Error) in the middle of an upload leaves nothing either: PostgreSQL's chunks were once committed. */
    @Test
    void keepsNothingOfAStreamThatFailsWithAnError() throws Exception {
        byte[] head = random(MULTI_CHUNK * 2);
        AssertionError bug = new AssertionError("a bug under the upload");
        InputStream failing = new SequenceInputStream(new ByteArrayInputStream(head), new InputStream() {
            @Override
            public int read() {
                throw bug;
            }
        });
        assertSame(bug, assertThrows(AssertionError.class,
                () -> store().put(failing, UploadPolicy.unchecked(LIMIT))));
        assertEquals(OptionalLong.empty(), store().size(Digest.parse("sha256:" + DigestUtils.sha256Hex(head))));
        assertNoLeftovers();
    }

    @Test
    void sweepingAbandonedUploadsNeverTouchesStoredBlobs() throws IOException {
        byte[] bytes = random(MULTI_CHUNK);
        StoredBlob blob = put(bytes);
        store().removeAbandonedUploads(Duration.ZERO);
        assertArrayEquals(bytes, read(blob.digest(), 0, bytes.length));
    }

    @Test
    void reportsUnknownBlobsAsMissing() throws IOException {
        Digest unknown = Digest.parse("sha256:" + DigestUtils.sha256Hex("never stored " + System.nanoTime()));
        assertEquals(OptionalLong.empty(), store().size(unknown));
        assertThrows(NoSuchFileException.class, () -> store().open(unknown));
        assertThrows(NoSuchFileException.class, () -> store().open(unknown, 0, 1));
    }
}
