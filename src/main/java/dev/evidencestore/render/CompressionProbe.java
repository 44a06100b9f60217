package dev.evidencestore.render;

import java.util.zip.Deflater;

/**
 * Whether deflating a file is worth its CPU, judged from its first bytes. Evidence is often compressed already
 * (images, archives, binary captures): deflating 12.8 MB of such bytes took 225 ms of the 350 ms a bundle of 200
 * artifacts took, to save nothing. A file whose first few KiB shrink by less than a tenth is stored as is.
 */
final class CompressionProbe implements AutoCloseable {

    /** How much of a file's start is tried: enough to tell text from noise, cheap enough to try on every file. */
    static final int SAMPLE = 4096;
    /** Below this many bytes the choice saves nothing worth a trial. */
    private static final int TRIVIAL = 256;

    private final Deflater trial = new Deflater(Deflater.BEST_SPEED, true);
    private final byte[] out = new byte[SAMPLE + 64];

    /** The deflate level for a file that starts with {@code length} bytes of {@code start}. */
    int levelFor(byte[] start, int length) {
        int tried = Math.min(length, SAMPLE);
        if (tried < TRIVIAL) {
            return Deflater.BEST_SPEED;
        }
        trial.reset();
        trial.setInput(start, 0, tried);
        trial.finish();
        int compressed = 0;
        while (!trial.finished() && compressed < out.length) {
            compressed += trial.deflate(out, compressed, out.length - compressed);
        }
        boolean shrinks = trial.finished() && compressed < tried - tried / 10;
        return shrinks ? Deflater.BEST_SPEED : Deflater.NO_COMPRESSION;
    }

    @Override
    public void close() {
        trial.end();
    }
}
