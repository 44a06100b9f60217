package dev.evidencestore.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Bytes to upload, hashed before the upload starts so that the digest can be declared (the URL's and
 * {@code Content-Digest}) and a cut upload sent again from the start. A stream (standard input, a command's output)
 * is copied to a temporary file while it is hashed, whatever its size; the file goes when this is closed.
 */
final class HashedFile implements AutoCloseable {

    private static final int BUFFER = 64 * 1024;

    private final Path path;
    private final String label;
    private final byte[] sha256;
    private final long size;
    private final boolean temporary;

    private HashedFile(Path path, String label, byte[] sha256, long size, boolean temporary) {
        this.path = path;
        this.label = label;
        this.sha256 = sha256;
        this.size = size;
        this.temporary = temporary;
    }

    /** A file as it is, read once to hash it. */
    static HashedFile of(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = sha256();
            long size = copy(in, digest, OutputStream.nullOutputStream());
            return new HashedFile(file, file.toString(), digest.digest(), size, false);
        }
    }

    /** A stream copied to a temporary file (readable by its owner only) while it is hashed. */
    static HashedFile copyOf(InputStream in, String label) throws IOException {
        Path copy = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                ? Files.createTempFile("evidence-", ".upload",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createTempFile("evidence-", ".upload");
        try {
            MessageDigest digest = sha256();
            long size;
            try (OutputStream out = Files.newOutputStream(copy)) {
                size = copy(in, digest, out);
            }
            return new HashedFile(copy, label, digest.digest(), size, true);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(copy);
            throw e;
        }
    }

    /** Reads {@code in} to its end into {@code digest} and {@code out}; returns how many bytes it read. */
    private static long copy(InputStream in, MessageDigest digest, OutputStream out) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long size = 0;
        for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
            digest.update(buffer, 0, read);
            out.write(buffer, 0, read);
            size += read;
        }
        return size;
    }

    Path path() {
        return path;
    }

    /** What the person named: the file's path, or "standard input". */
    String label() {
        return label;
    }

    long size() {
        return size;
    }

    String hex() {
        return HexFormat.of().formatHex(sha256);
    }

    /** The digest as the API writes it, {@code sha256:} and 64 lowercase hex digits. */
    String digest() {
        return "sha256:" + hex();
    }

    /** The RFC 9530 {@code Content-Digest} field value, a Dictionary whose sha-256 member is a Byte Sequence. */
    String contentDigest() {
        return "sha-256=:" + Base64.getEncoder().encodeToString(sha256) + ":";
    }

    @Override
    public void close() throws IOException {
        if (temporary) {
            Files.deleteIfExists(path);
        }
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
