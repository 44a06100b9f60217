package dev.evidencestore.cli;

import dev.evidencestore.verify.Ed25519Keys;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.StringWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * The witness's memory under {@code $XDG_STATE_HOME/evidence/witness}: one directory per service and log origin,
 * holding {@code witness.properties} (the exact service URL and origin, how and when the key was pinned),
 * {@code key.pem} and {@code checkpoint}, the latest signed note seen. Files are replaced atomically, so a run cut
 * short leaves the previous checkpoint, never half of one.
 */
final class WitnessState {

    private static final String PROPERTIES = "witness.properties";
    private static final String KEY = "key.pem";
    private static final String CHECKPOINT = "checkpoint";

    private final Path root;

    WitnessState(Path stateDirectory) {
        this.root = stateDirectory.resolve("witness");
    }

    Path root() {
        return root;
    }

    Optional<WitnessRecord> load(URI service, String origin) {
        Path directory = directory(service, origin);
        return Files.isRegularFile(directory.resolve(PROPERTIES)) ? Optional.of(read(directory)) : Optional.empty();
    }

    /** Every log remembered, ordered by service and origin. */
    List<WitnessRecord> all() {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root, 2)) {
            return files.filter(directory -> Files.isRegularFile(directory.resolve(PROPERTIES))).sorted()
                    .map(WitnessState::read).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void pin(URI service, String origin, PublicKey key, String how) {
        Path directory = directory(service, origin);
        Properties properties = properties(directory, service, origin);
        properties.setProperty("pinned", how);
        properties.setProperty("pinned-at", Instant.now().toString());
        write(directory.resolve(KEY), Ed25519Keys.publicPem(key).getBytes(StandardCharsets.US_ASCII));
        writeProperties(directory, properties);
    }

    void remember(URI service, String origin, byte[] note) {
        Path directory = directory(service, origin);
        Properties properties = properties(directory, service, origin);
        properties.setProperty("remembered-at", Instant.now().toString());
        write(directory.resolve(CHECKPOINT), note);
        writeProperties(directory, properties);
    }

    /** Forgets the checkpoint of a log, keeping its pinned key; true when there was one. */
    boolean forgetCheckpoint(URI service, String origin) {
        try {
            return Files.deleteIfExists(directory(service, origin).resolve(CHECKPOINT));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path directory(URI service, String origin) {
        return root.resolve(slug(service.getScheme() + "_" + service.getHost() + "_" + service.getPort()))
                .resolve(slug(origin) + "-" + shortHash(origin));
    }

    private static WitnessRecord read(Path directory) {
        try {
            Properties properties = new Properties();
            try (Reader reader = Files.newBufferedReader(directory.resolve(PROPERTIES), StandardCharsets.UTF_8)) {
                properties.load(reader);
            }
            Path key = directory.resolve(KEY);
            Path note = directory.resolve(CHECKPOINT);
            return new WitnessRecord(directory, properties.getProperty("service", "?"),
                    properties.getProperty("origin", "?"),
                    Files.isRegularFile(key) ? Optional.of(Files.readString(key)) : Optional.empty(),
                    properties.getProperty("pinned", "") + " " + properties.getProperty("pinned-at", ""),
                    Files.isRegularFile(note) ? Optional.of(Files.readAllBytes(note)) : Optional.empty(),
                    properties.getProperty("remembered-at", ""));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties properties(Path directory, URI service, String origin) {
        Properties properties = new Properties();
        Path file = directory.resolve(PROPERTIES);
        if (Files.isRegularFile(file)) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                properties.load(reader);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        properties.setProperty("service", service.toString());
        properties.setProperty("origin", origin);
        return properties;
    }

    private static void writeProperties(Path directory, Properties properties) {
        try (Writer text = new StringWriter()) {
            properties.store(text, "what the evidence CLI remembers of this log; see docs/cli.md");
            write(directory.resolve(PROPERTIES), text.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path file, byte[] bytes) {
        try {
            Files.createDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), ".new-", ".tmp");
            Files.write(temporary, bytes);
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String slug(String text) {
        String slug = text.replaceAll("[^A-Za-z0-9.-]+", "_");
        return slug.length() > 80 ? slug.substring(0, 80) : slug;
    }

    /** Keeps two origins apart that differ only in characters {@link #slug} replaces. */
    private static String shortHash(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
