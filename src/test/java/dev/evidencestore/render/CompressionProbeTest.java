package dev.evidencestore.render;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CompressionProbeTest {

    private static byte[] noise(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    private static byte[] json(int size) {
        StringBuilder text = new StringBuilder("{\"samples\":[");
        for (int i = 0; text.length() < size; i++) {
            text.append("{\"t\":").append(1_750_000_000 + i * 15).append(",\"p99\":").append(i % 97).append("},");
        }
        return text.substring(0, size).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void noiseIsStoredAndTextIsDeflated() {
        try (CompressionProbe probe = new CompressionProbe()) {
            assertEquals(Deflater.NO_COMPRESSION, probe.levelFor(noise(65536), 65536));
            assertEquals(Deflater.NO_COMPRESSION, probe.levelFor(noise(1000), 1000));
            assertEquals(Deflater.BEST_SPEED, probe.levelFor(json(65536), 65536));
            assertEquals(Deflater.BEST_SPEED, probe.levelFor(json(300), 300));
            // too small to be worth a trial: deflated, as before
            assertEquals(Deflater.BEST_SPEED, probe.levelFor(noise(100), 100));
            assertEquals(Deflater.BEST_SPEED, probe.levelFor(new byte[0], 0));
        }
    }

    /** The bundle switches levels between entries of one archive: every entry still reads back as written. */
    @Test
    void entriesOfEitherLevelInOneArchiveReadBack() throws IOException {
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("noise.bin", noise(200_000));
        files.put("panel.json", json(200_000));
        files.put("more-noise.bin", noise(70_000));
        ByteArrayOutputStream archive = new ByteArrayOutputStream();
        Map<String, Long> compressed = new LinkedHashMap<>();
        try (CompressionProbe probe = new CompressionProbe(); ZipOutputStream zip = new ZipOutputStream(archive)) {
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                zip.setLevel(probe.levelFor(file.getValue(), file.getValue().length));
                ZipEntry entry = new ZipEntry(file.getKey());
                zip.putNextEntry(entry);
                zip.write(file.getValue());
                zip.closeEntry();
                compressed.put(file.getKey(), entry.getCompressedSize());
            }
        }
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(archive.toByteArray()))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                assertArrayEquals(files.get(entry.getName()), in.readAllBytes(), entry.getName());
            }
        }
        // stored blocks cost a few bytes each; deflated text is a fraction of its size
        assertTrue(compressed.get("noise.bin") < 200_000 + 100, compressed.toString());
        assertTrue(compressed.get("panel.json") < 200_000 / 3, compressed.toString());
    }
}
