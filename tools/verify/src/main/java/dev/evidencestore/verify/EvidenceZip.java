package dev.evidencestore.verify;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * An evidence bundle's files, read from the zip as needed: artifacts are hashed as they stream, so a bundle of any
 * size is checked in little memory; the small files (manifest, statements, leaves, proofs) are read whole.
 */
final class EvidenceZip implements AutoCloseable {

    /** The largest file read whole; anything bigger in a place that holds small JSON is refused. */
    private static final int MAX_SMALL = 16 * 1024 * 1024;

    private final ZipFile zip;
    private final List<String> files;

    private EvidenceZip(ZipFile zip, List<String> files) {
        this.zip = zip;
        this.files = files;
    }

    static EvidenceZip open(Path path) throws IOException {
        ZipFile zip = new ZipFile(path.toFile());
        List<String> files = new ArrayList<>();
        zip.stream().filter(entry -> !entry.isDirectory()).forEach(entry -> files.add(entry.getName()));
        return new EvidenceZip(zip, Collections.unmodifiableList(files));
    }

    /** Every file's name, in the zip's order. */
    List<String> files() {
        return files;
    }

    /** The files under a folder, such as {@code statements/}. */
    List<String> under(String folder) {
        return files.stream().filter(name -> name.startsWith(folder)).toList();
    }

    boolean has(String name) {
        return files.contains(name);
    }

    /** The whole of a small file, or empty when the bundle has none by that name. */
    Optional<byte[]> bytes(String name) throws IOException {
        ZipEntry entry = zip.getEntry(name);
        if (entry == null || entry.isDirectory()) {
            return Optional.empty();
        }
        try (InputStream in = zip.getInputStream(entry)) {
            byte[] bytes = in.readNBytes(MAX_SMALL + 1);
            if (bytes.length > MAX_SMALL) {
                throw new MalformedInput(name + " is larger than " + MAX_SMALL + " bytes");
            }
            return Optional.of(bytes);
        }
    }

    Optional<String> text(String name) throws IOException {
        return bytes(name).map(bytes -> new String(bytes, StandardCharsets.UTF_8));
    }

    /** The hex SHA-256 of a file, streamed. */
    String sha256(String name) throws IOException {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        try (InputStream in = zip.getInputStream(zip.getEntry(name))) {
            byte[] buffer = new byte[64 * 1024];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                sha256.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha256.digest());
    }

    @Override
    public void close() throws IOException {
        zip.close();
    }
}
