package dev.evidencestore.storage;

/**
 * The size of the first buffer a stream of known length is read into: a whole block, or, when the stream is shorter,
 * one byte more than its length, so that a short stream neither allocates nor zeroes a whole block and its end still
 * shows as a read short of full. A length below zero is unknown.
 */
final class FirstBlock {

    private FirstBlock() {
    }

    static int size(long length, int block) {
        return length >= 0 && length < block ? (int) length + 1 : block;
    }
}
