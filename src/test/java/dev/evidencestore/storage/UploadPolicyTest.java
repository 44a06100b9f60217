package dev.evidencestore.storage;

import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UploadPolicyTest {

    private static final int BLOCK = 256 * 1024;

    @Test
    void anUndeclaredSizeTakesAWholeBlock() {
        assertEquals(BLOCK, new UploadPolicy(Set.of(), 1 << 30).firstBlock(BLOCK));
    }

    @Test
    void aSmallDeclaredSizeTakesOneByteMoreSoItsEndIsSeen() {
        assertEquals(10_241, new UploadPolicy(Set.of(), 1 << 30, 10_240).firstBlock(BLOCK));
        assertEquals(1, new UploadPolicy(Set.of(), 1 << 30, 0).firstBlock(BLOCK));
    }

    @Test
    void aDeclaredSizeOfABlockOrMoreTakesAWholeBlock() {
        assertEquals(BLOCK, new UploadPolicy(Set.of(), 1L << 40, BLOCK).firstBlock(BLOCK));
        assertEquals(BLOCK, new UploadPolicy(Set.of(), 1L << 40, 1L << 35).firstBlock(BLOCK));
    }

    @Test
    void onlyAKnownSizeCanBeFramed() {
        assertTrue(UploadPolicy.framed(Set.of(), 1 << 30, 0).exact());
        assertFalse(new UploadPolicy(Set.of(), 1 << 30, 10_240).exact());
        assertThrows(IllegalArgumentException.class, () -> UploadPolicy.framed(Set.of(), 1 << 30, -1));
    }
}
