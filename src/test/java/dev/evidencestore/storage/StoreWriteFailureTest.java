package dev.evidencestore.storage;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/** A failed write of the store, as the operating system words it: full, or failing. */
class StoreWriteFailureTest {

    @Test
    void noSpaceAndAnExceededQuotaAreAFullStore() {
        for (String message : new String[] {"No space left on device", "/data/x.part: Disk quota exceeded"}) {
            IOException cause = new IOException(message);
            StoreWriteFailure failure = StoreWriteFailure.of("the filesystem blob store", cause);
            assertInstanceOf(StoreFull.class, failure);
            assertEquals("the filesystem blob store has no space left", failure.getMessage());
            assertSame(cause, failure.getCause());
        }
    }

    @Test
    void everyOtherWriteErrorIsAFailingStore() {
        StoreWriteFailure failure = StoreWriteFailure.of("the filesystem blob store",
                new IOException("Input/output error"));
        assertInstanceOf(StoreUnavailable.class, failure);
        assertEquals("the filesystem blob store failed to write", failure.getMessage());
    }
}
