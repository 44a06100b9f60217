package dev.evidencestore.storage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import java.util.UUID;

/**
 * Notes as read-only files in one directory, such as a volume the database's host cannot write. A note is written to
 * a hidden file created with CREATE_NEW, fsynced and made read-only, then linked under its name: a hard link creates
 * the name atomically and, unlike a rename, refuses one that exists. So a crash never leaves a partial note under a
 * name nothing may overwrite, and no name is ever overwritten.
 */
public final class DirectoryAnchor implements Anchor {

    /** Notes being written; never listed, and left by a crash only as litter. */
    private static final String WRITING = ".writing-";

    private final Path directory;

    public DirectoryAnchor(Path directory) {
        this.directory = directory;
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the checkpoint directory " + directory, e);
        }
    }

    @Override
    public void publish(String name, byte[] note) throws IOException {
        Path target = file(name);
        if (Files.exists(target)) {
            sameAs(name, note);
            return;
        }
        Path writing = directory.resolve(WRITING + UUID.randomUUID());
        try {
            try (FileChannel channel = FileChannel.open(writing, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ByteBuffer bytes = ByteBuffer.wrap(note);
                while (bytes.hasRemaining()) {
                    channel.write(bytes);
                }
                channel.force(true);
            }
            readOnly(writing);
            try {
                Files.createLink(target, writing);
            } catch (FileAlreadyExistsException raced) {
                sameAs(name, note);
                return;
            }
            syncDirectory();
        } finally {
            Files.deleteIfExists(writing);
        }
    }

    private void sameAs(String name, byte[] note) throws IOException {
        if (!Arrays.equals(read(name), note)) {
            throw new FileAlreadyExistsException(locate(name), null,
                    "holds other bytes than the note published now; a published note is never overwritten");
        }
    }

    private static void readOnly(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r--r--"));
        } catch (UnsupportedOperationException notPosix) {
            if (!file.toFile().setReadOnly()) {
                throw new IOException("cannot make " + file + " read-only");
            }
        }
    }

    /** The link is durable only once the directory's entry is. */
    private void syncDirectory() throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException | UnsupportedOperationException notSupported) {
            // some platforms cannot open a directory; the file itself is fsynced already
        }
    }

    @Override
    public boolean holds(String name) {
        return Files.exists(file(name));
    }

    /** A directory lists in no order: each page is one pass keeping only the {@code limit} smallest names. */
    @Override
    public List<String> names(String after, int limit) throws IOException {
        TreeSet<String> page = new TreeSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".") || name.compareTo(after) <= 0) {
                    continue;
                }
                page.add(name);
                if (page.size() > limit) {
                    page.pollLast();
                }
            }
        }
        return new ArrayList<>(page);
    }

    @Override
    public byte[] read(String name) throws IOException {
        try (InputStream in = Files.newInputStream(file(name))) {
            byte[] bytes = in.readNBytes(MAX_NOTE + 1);
            if (bytes.length > MAX_NOTE) {
                throw new IOException(locate(name) + " is larger than " + MAX_NOTE + " bytes: not a signed note");
            }
            return bytes;
        }
    }

    @Override
    public String locate(String name) {
        return directory.resolve(name).toString();
    }

    private Path file(String name) {
        if (name.isEmpty() || name.startsWith(".") || name.contains("/") || name.contains("\\")) {
            throw new IllegalArgumentException("not a note's name: " + name);
        }
        return directory.resolve(name);
    }
}
