package dev.evidencestore.storage;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    void storesBlobsAsReadOnlyFilesNamedByDigest() throws IOException {
        StoredBlob blob = store().put(new ByteArrayInputStream("abc".getBytes()), UploadPolicy.unchecked(10));
        Path file = root.resolve("sha256/ba/ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assertEquals(file, store.pathOf(blob.digest()));
        assertEquals("r--r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertNoLeftovers();
    }
}
