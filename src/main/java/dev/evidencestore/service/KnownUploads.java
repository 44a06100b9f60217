package dev.evidencestore.service;

import com.github.benmanes.caffeine.cache.Cache;
import dev.evidencestore.Caches;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.Digest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.TransactionSynchronizationRegistry;

import java.util.OptionalLong;

/**
 * Which blobs each uploader has uploaded, with their sizes, once the transaction that recorded the upload has
 * committed. An upload's record is write-once (the database refuses to update or delete it) and a blob's size never
 * changes, so what a committed transaction recorded stays true for ever and on every instance: the binding that
 * follows an upload, by its uploader, sees the blob without a query. A miss only means asking the database.
 */
@ApplicationScoped
public class KnownUploads {

    private final Cache<Upload, Long> sizes;
    private final TransactionSynchronizationRegistry transactions;

    KnownUploads(EvidenceConfig config, TransactionSynchronizationRegistry transactions) {
        this.transactions = transactions;
        this.sizes = Caches.builder().maximumSize(config.cache().uploads()).build();
    }

    /** The size of {@code digest} if {@code uploader} is known to have uploaded it. */
    OptionalLong size(Attribution uploader, Digest digest) {
        Long size = sizes.getIfPresent(Upload.of(uploader, digest));
        return size == null ? OptionalLong.empty() : OptionalLong.of(size);
    }

    /** Keeps the upload the current transaction recorded, once it commits. */
    void recorded(Attribution uploader, Digest digest, long size) {
        Upload upload = Upload.of(uploader, digest);
        AfterCommit.run(transactions, () -> sizes.put(upload, size));
    }

    /**
     * An uploader by principal when it has one, else by name: as the visibility query matches an upload's row, so
     * that a hit is always one the query would have found.
     */
    private record Upload(String uploader, Digest digest) {
        static Upload of(Attribution uploader, Digest digest) {
            String who = uploader.principalForm() != null ? "principal " + uploader.principalForm()
                    : "name " + uploader.name();
            return new Upload(who, digest);
        }
    }
}
