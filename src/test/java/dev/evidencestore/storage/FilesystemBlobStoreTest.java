package dev.evidencestore.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FilesystemBlobStoreTest extends BlobStoreContract {

    @TempDir
    Path root;

    private FilesystemBlobStore store;

    @Override
    protected BlobStore store() {
        if (store == null) {
            store = new FilesystemBlobStore(root);
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
    void aFileIsNotReadAheadAgainTheKernelAlreadyDoes() throws IOException {
        byte[] bytes = new byte[3 * ReadAhead.BLOCK + 321];
        new Random(7).nextBytes(bytes);
        StoredBlob blob = store().put(new ByteArrayInputStream(bytes), UploadPolicy.unchecked(bytes.length));
        try (InputStream in = ReadAhead.of(store.open(blob.digest()), bytes.length)) {
            assertInstanceOf(PrefetchedInput.class, in);
            assertArrayEquals(bytes, in.readAllBytes());
        }
    }

    @Test
    void removesUploadsAbandonedLongerThanTheGraceOnly() throws IOException {
        store();
        Path abandoned = root.resolve("uploads/crashed.part");
        Path live = root.resolve("uploads/streaming.part");
        Files.write(abandoned, new byte[] {1, 2, 3});
        Files.write(live, new byte[] {4});
        Files.setLastModifiedTime(abandoned, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        assertEquals(1, store.removeAbandonedUploads(Duration.ofHours(1)));
        assertFalse(Files.exists(abandoned));
        assertTrue(Files.exists(live));
    }

    @Test
    void storesBlobsAsReadOnlyFilesNamedByDigest() throws IOException {
        StoredBlob blob = store().put(new ByteArrayInputStream("abc".getBytes()), UploadPolicy.unchecked(10));
        Path file = root.resolve("sha256/ba/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertEquals(file, store.pathOf(blob.digest()));
        assertEquals("r--r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertNoLeftovers();
    }
}
