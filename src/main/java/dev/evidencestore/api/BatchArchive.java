package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.http.ClientUpload;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

import java.io.Closeable;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A batch upload's tar body, read as it arrives and never held whole: {@code batch.json} first, then one entry per
 * item in any order. Each entry's bytes are counted against the batch's budget as they are handed out.
 */
final class BatchArchive implements Closeable {

    static final String MANIFEST = "batch.json";
    private static final int MAX_PADDING = 10_240;

    /** The body is not a well-formed tar archive; nothing more of it is read. */
    static final class Malformed extends IOException {
        Malformed(IOException cause) {
            super("the body is not a well-formed tar archive: " + cause.getMessage(), cause);
        }
    }

    private final TarArchiveInputStream tar;
    private final EvidenceConfig.Batch limits;
    private long blobBytes;

    BatchArchive(InputStream body, EvidenceConfig.Batch limits) {
        this.tar = new TarArchiveInputStream(body);
        this.limits = limits;
    }

    /** The items of batch.json, which must be the first entry; refused whole when it is missing, too big or invalid. */
    List<ArtifactBatchItem> manifest(ObjectMapper mapper) throws IOException {
        TarArchiveEntry first = nextFile();
        if (first == null || !MANIFEST.equals(first.getName())) {
            throw new Refusal(ProblemType.INVALID_REQUEST, "the first entry of a batch must be " + MANIFEST
                    + ", an array of the items to bind");
        }
        long max = limits.maxManifest().asLongValue();
        if (first.getSize() > max) {
            throw new Refusal(ProblemType.BODY_TOO_LARGE, MANIFEST + " is " + first.getSize() + " bytes; at most "
                    + max + " are accepted").with("maxSize", max);
        }
        ArtifactBatchItem[] items = mapper.readValue(read(first), ArtifactBatchItem[].class);
        if (items.length > limits.maxItems()) {
            throw new Refusal(ProblemType.BODY_TOO_LARGE, MANIFEST + " declares " + items.length + " items; at most "
                    + limits.maxItems() + " are accepted in one batch").with("maxItems", limits.maxItems());
        }
        if (Arrays.stream(items).anyMatch(Objects::isNull)) {
            throw Refusal.invalid(MANIFEST, "every item must be an object");
        }
        return List.of(items);
    }

    /** The next regular file, or null at the end; directories and links carry no bytes and are passed over. */
    TarArchiveEntry nextFile() throws IOException {
        try {
            for (TarArchiveEntry entry = tar.getNextEntry(); entry != null; entry = tar.getNextEntry()) {
                if (entry.isFile()) {
                    return entry;
                }
            }
            return null;
        } catch (ClientUpload.Interrupted e) {
            throw e;
        } catch (IOException | IllegalArgumentException e) {
            throw new Malformed(e instanceof IOException io ? io : new IOException(e.getMessage(), e));
        }
    }

    /**
     * The current entry's bytes, up to its end; closing them leaves the archive open. An entry that takes the batch
     * beyond its byte budget is refused, and with it the rest of the body.
     */
    InputStream content(TarArchiveEntry entry) {
        blobBytes += entry.getSize();
        long max = limits.maxBytes().asLongValue();
        if (blobBytes > max) {
            throw new Refusal(ProblemType.BODY_TOO_LARGE, "the entries of this batch hold more than " + max
                    + " bytes; send the rest in another batch").with("maxSize", max);
        }
        return new EntryContent(tar);
    }

    private byte[] read(TarArchiveEntry entry) throws IOException {
        try (InputStream in = content(entry)) {
            return in.readAllBytes();
        } finally {
            blobBytes -= entry.getSize();
        }
    }

    /**
     * Reads what follows the archive's end: the zeros that pad its last record (10 KiB at most as tar writes them),
     * so that the whole body is hashed. More than a record is not part of any archive, and is refused.
     */
    void readPadding(InputStream body) throws IOException {
        if (body.readNBytes(MAX_PADDING + 1).length > MAX_PADDING) {
            throw new Refusal(ProblemType.INVALID_REQUEST, "the body goes on after the tar archive's end");
        }
    }

    @Override
    public void close() throws IOException {
        tar.close();
    }

    /** An entry's bytes: a failure to parse the archive under them is the client's, told apart from the store's. */
    private static final class EntryContent extends FilterInputStream {

        EntryContent(InputStream tar) {
            super(tar);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (ClientUpload.Interrupted e) {
                throw e;
            } catch (IOException e) {
                throw new Malformed(e);
            }
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            try {
                return super.read(buffer, offset, length);
            } catch (ClientUpload.Interrupted e) {
                throw e;
            } catch (IOException e) {
                throw new Malformed(e);
            }
        }

        @Override
        public void close() {
            // the archive goes on with its next entry
        }
    }
}
