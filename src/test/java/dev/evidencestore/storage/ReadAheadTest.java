package dev.evidencestore.storage;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadAheadTest {

    @Test
    void passesOnEveryByteInOrderWhateverTheReadSizes() throws IOException {
        byte[] bytes = new byte[3 * ReadAhead.BLOCK + 12_345];
        new Random(7).nextBytes(bytes);
        try (ReadAhead in = new ReadAhead(new ByteArrayInputStream(bytes), bytes.length)) {
            byte[] first = new byte[100];
            assertEquals(100, in.read(first, 0, 100));
            assertEquals(bytes[100] & 0xff, in.read());
            byte[] rest = in.readAllBytes();
            assertEquals(bytes.length - 101, rest.length);
            assertArrayEquals(bytes, concat(first, new byte[] {bytes[100]}, rest));
            assertEquals(-1, in.read());
        }
        try (ReadAhead empty = new ReadAhead(InputStream.nullInputStream(), 0)) {
            assertEquals(-1, empty.read(new byte[10], 0, 10));
        }
    }

    /**
     * The length only sizes the first block: a source longer or shorter than it said is still passed on whole, and
     * one longer than it said goes on in whole blocks, not in blocks of the size it said.
     */
    @Test
    void aWrongLengthCostsAtMostOneSmallBlockNotBytes() throws IOException {
        byte[] bytes = new byte[ReadAhead.BLOCK + 777];
        new Random(11).nextBytes(bytes);
        for (long said : new long[] {0, 100, bytes.length - 1, bytes.length + 5_000L}) {
            AtomicInteger reads = new AtomicInteger();
            InputStream counted = new FilterInputStream(new ByteArrayInputStream(bytes)) {
                @Override
                public int read(byte[] buffer, int offset, int length) throws IOException {
                    reads.incrementAndGet();
                    return super.read(buffer, offset, length);
                }
            };
            try (ReadAhead in = new ReadAhead(counted, said)) {
                assertArrayEquals(bytes, in.readAllBytes(), "length said " + said);
            }
            // a first block, a whole one, the rest and the end: not a read per byte said
            assertTrue(reads.get() <= 4, "length said " + said + ": " + reads.get() + " reads of the source");
        }
    }

    @Test
    void aFailureOfTheSourceReachesTheReaderAfterTheBytesBeforeIt() throws IOException {
        byte[] head = new byte[ReadAhead.BLOCK];
        InputStream breaking = failingAfter(head, "the store went away");
        try (ReadAhead in = new ReadAhead(breaking, Long.MAX_VALUE)) {
            assertEquals(ReadAhead.BLOCK, in.readNBytes(ReadAhead.BLOCK).length);
            assertEquals("the store went away", assertThrows(IOException.class, in::read).getMessage());
        }
    }

    @Test
    void closingEarlyClosesTheSource() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return 1;
            }

            @Override
            public void close() {
                closed.set(true);
            }
        };
        ReadAhead in = new ReadAhead(endless, Long.MAX_VALUE);
        assertEquals(1, in.read());
        in.close();
        // the fetcher closes it, once its read in progress returns
        assertTrue(closedWithin(closed, Duration.ofSeconds(10)));
    }

    @Test
    void bytesOfABlockWhoseReadFailedAreNeverHandedOver() throws IOException {
        // as a checked read fails on its last bytes when they complete the wrong digest: none of them may go out
        byte[] bytes = new byte[ReadAhead.BLOCK + 100];
        InputStream failingAtTheEnd = failingAfter(bytes, "the last bytes hash to another digest");
        try (ReadAhead in = new ReadAhead(failingAtTheEnd, bytes.length)) {
            assertEquals(ReadAhead.BLOCK, in.readNBytes(ReadAhead.BLOCK).length);
            byte[] rest = new byte[200];
            assertThrows(IOException.class, () -> in.read(rest, 0, rest.length));
        }
    }

    @Test
    void aStreamNeverClosedByItsReaderIsClosedOnceFetched() throws Exception {
        AtomicBoolean closed = new AtomicBoolean();
        InputStream source = new ByteArrayInputStream(new byte[10]) {
            @Override
            public void close() {
                closed.set(true);
            }
        };
        ReadAhead in = new ReadAhead(source, 10);
        assertEquals(10, in.readAllBytes().length);
        assertTrue(closedWithin(closed, Duration.ofSeconds(10)), "the fetcher closes the source at its end");
        in.close();
    }

    /** {@code bytes}, then a read that fails with {@code message}. */
    private static InputStream failingAfter(byte[] bytes, String message) {
        return new SequenceInputStream(new ByteArrayInputStream(bytes), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException(message);
            }
        });
    }

    private static boolean closedWithin(AtomicBoolean closed, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!closed.get() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        return closed.get();
    }

    private static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int at = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, at, part.length);
            at += part.length;
        }
        return all;
    }
}
