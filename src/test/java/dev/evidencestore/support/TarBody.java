package dev.evidencestore.support;

import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** A tar archive built in memory, entry by entry in the order given (a name may come twice): a batch upload's body. */
public final class TarBody {

    private record Entry(String path, byte[] bytes) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private String paxTime;

    /**
     * Gives every entry a PAX extended header with its modification time in decimal seconds, as GNU tar's
     * {@code --format=posix} does (what the documentation tells users to run, and bench/batch-ingest.mjs runs).
     */
    public TarBody withPaxTimes(String decimalSeconds) {
        this.paxTime = decimalSeconds;
        return this;
    }

    public TarBody add(String path, byte[] bytes) {
        entries.add(new Entry(path, bytes));
        return this;
    }

    public byte[] bytes() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(out)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Entry entry : entries) {
                TarArchiveEntry header = new TarArchiveEntry(entry.path());
                header.setSize(entry.bytes().length);
                if (paxTime != null) {
                    header.addPaxHeader("mtime", paxTime);
                }
                tar.putArchiveEntry(header);
                tar.write(entry.bytes());
                tar.closeArchiveEntry();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
