package dev.evidencestore.service;

import dev.evidencestore.storage.BlobStore;
import dev.evidencestore.storage.FilesystemBlobStore;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

/**
 * How many small items of a batch upload are stored at once: the backend's own number unless
 * {@code evidence.batch.items-in-flight} sets one. PostgreSQL commits short blobs in groups and gains from more
 * writers per commit; a file or an S3 object is a write of its own.
 */
@QuarkusTest
class BatchItemsInFlightTest {

    @Inject
    BlobService blobs;

    @Inject
    BlobStore store;

    @Test
    void thePostgresBackendStoresSixteenAtOnceThroughTheSmallBlobCache() {
        assertEquals(16, blobs.batchItemsInFlight(), "the suite runs on postgres, with no items-in-flight set");
        assertNotSame(store, store.stored(), "the small-blob cache stands in front of the backend");
        assertEquals(16, store.smallWritesAtOnce(), "and passes the backend's number on");
    }

    @Test
    void aFilesystemStoreStoresEightAtOnce(@TempDir Path root) {
        assertEquals(8, BlobService.itemsInFlight(OptionalInt.empty(), new FilesystemBlobStore(root)));
    }

    @Test
    void theSettingOverridesTheBackendsNumber(@TempDir Path root) {
        assertEquals(3, BlobService.itemsInFlight(OptionalInt.of(3), store));
        assertEquals(1, BlobService.itemsInFlight(OptionalInt.of(1), new FilesystemBlobStore(root)));
    }
}
