package dev.evidencestore.storage;

import dev.evidencestore.domain.Digest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;

/**
 * Blobs as read-only files under {@code root/sha256/ab/abcd…}. An upload streams into a temp file in
 * {@code root/uploads} while it is hashed, is fsynced, then atomically renamed into place and the directory
 * fsynced, so a file under a digest name is always complete and durable.
 */
public final class FilesystemBlobStore implements BlobStore {

    private static final int BUFFER = 256 * 1024;
    private static final Set<OpenOption> WRITE_NEW = Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    private static final FileAttribute<Set<PosixFilePermission>> READ_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r--r-----"));
    /** How much an upload writes before the disk is asked to take it (BackgroundFlush). */
    private static final long FLUSH_EVERY = 32L * 1024 * 1024;

    private final Path blobs;
    private final Path uploads;

    public FilesystemBlobStore(Path root) {
        this.blobs = root.resolve("sha256");
        this.uploads = root.resolve("uploads");
        try {
            Files.createDirectories(blobs);
            Files.createDirectories(uploads);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the blob directories under " + root, e);
        }
    }

    @Override
    public StoredBlob put(InputStream content, UploadPolicy policy) throws IOException {
        Path temp = uploads.resolve(UUID.randomUUID() + ".part");
        MeasuredInput in = new MeasuredInput(content, policy);
        boolean moved = false;
        try {
            StoredBlob blob = writeDurably(in, temp, policy.firstBlock(BUFFER));
            Path target = pathOf(blob.digest());
            if (!Files.exists(target)) {
                moveIntoPlace(temp, target);
                moved = true;
            }
            return blob;
        } catch (IOException e) {
            throw in.failedReading(e) ? e : StoreWriteFailure.of("the filesystem blob store", e);
        } finally {
            if (!moved) {
                Files.deleteIfExists(temp);
            }
        }
    }

    /**
     * Renames the written file to its digest's path and makes the rename durable. The prefix directory is made only
     * when the rename finds it missing: once all 256 exist, which is soon, checking first is a system call wasted.
     */
    private void moveIntoPlace(Path temp, Path target) throws IOException {
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (NoSuchFileException missingPrefix) {
            Files.createDirectories(target.getParent());
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            // a new sha256/ab directory is itself an entry of sha256/: make that durable too
            fsyncDirectory(blobs);
        }
        fsyncDirectory(target.getParent());
    }

    /**
     * Reads and hashes the upload in full blocks while a writer thread writes the previous block to the file, and
     * the disk is given what has been written as it goes; the closing fsync makes it all durable.
     */
    private static StoredBlob writeDurably(MeasuredInput in, Path temp, int firstBlock) throws IOException {
        // read-only from its creation: the open descriptor may still write it, nothing else can
        try (FileChannel out = FileChannel.open(temp, WRITE_NEW, READ_ONLY)) {
            BackgroundFlush flush = new BackgroundFlush(out, FLUSH_EVERY);
            WriteBehind.Sink<IOException> toFile = (block, length, n) -> {
                ByteBuffer bytes = ByteBuffer.wrap(block, 0, length);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                flush.written(length);
            };
            WriteBehind<IOException> writes = new WriteBehind<>(BUFFER, firstBlock, IOException.class, toFile);
            try {
                writes.sendAll(in);
                flush.finish();
            } finally {
                writes.quiesce();
                flush.quiesce();
            }
            out.force(true);
        }
        return in.finish();
    }

    private static void fsyncDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    /** Temp files are written continuously while an upload streams, so an idle one belongs to a dead upload. */
    @Override
    public int removeAbandonedUploads(Duration idle) throws IOException {
        Instant cutoff = Instant.now().minus(idle);
        int removed = 0;
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(uploads, "*.part")) {
            for (Path temp : temps) {
                if (Files.getLastModifiedTime(temp).toInstant().isBefore(cutoff) && Files.deleteIfExists(temp)) {
                    removed++;
                }
            }
        }
        return removed;
    }

    @Override
    public OptionalLong size(Digest digest) throws IOException {
        try {
            return OptionalLong.of(Files.size(pathOf(digest)));
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        }
    }

    @Override
    public long heldOfUpload(long declaredSize, boolean oneDigest) {
        return BlobStore.bufferUpTo(declaredSize, BUFFER);
    }

    @Override
    public boolean hashesAheadOfSending() {
        return true;
    }

    @Override
    public InputStream open(Digest digest, long offset, long length) throws IOException {
        FileChannel channel = FileChannel.open(pathOf(digest), StandardOpenOption.READ);
        channel.position(offset);
        return new LimitedInput(Channels.newInputStream(channel), length);
    }

    /** Where a blob lives; the digest is already validated, so no name can escape the root. */
    Path pathOf(Digest digest) {
        return blobs.resolve(digest.hex().substring(0, 2)).resolve(digest.hex());
    }
}
