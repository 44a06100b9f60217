package dev.evidencestore.service;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.BlobEntity;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.storage.BlobStore;
import dev.evidencestore.storage.StoredBlob;
import dev.evidencestore.storage.UploadPolicy;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.transaction.Transactional;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

@ApplicationScoped
public class BlobService {

    private static final String OCTET_STREAM = "application/octet-stream";

    private final BlobStore store;
    private final EntityManager entityManager;
    private final long maxSize;

    BlobService(BlobStore store, EntityManager entityManager, EvidenceConfig config) {
        this.store = store;
        this.entityManager = entityManager;
        this.maxSize = config.blob().maxSize().asLongValue();
    }

    /**
     * Stores an upload. The backend makes the bytes durable first; only then is the blob recorded, so no row ever
     * names bytes that are not there. No transaction is open while the bytes stream.
     */
    public BlobIngest ingest(InputStream body, Set<Digest> declared, Long contentLength) throws IOException {
        UploadPolicy policy = new UploadPolicy(declared, maxSize);
        if (contentLength != null && contentLength > maxSize) {
            throw policy.tooLarge();
        }
        StoredBlob blob = store.put(body, policy);
        boolean created = QuarkusTransaction.requiringNew().call(() -> record(blob));
        return new BlobIngest(blob, created);
    }

    private boolean record(StoredBlob blob) {
        return entityManager.createNativeQuery("""
                        INSERT INTO blob (digest, size, created_at) VALUES (:digest, :size, now())
                        ON CONFLICT (digest) DO NOTHING""")
                .setParameter("digest", blob.digest().toString())
                .setParameter("size", blob.size())
                .executeUpdate() == 1;
    }

    @Transactional
    public BlobContent content(Digest digest) {
        BlobEntity blob = BlobEntity.findById(digest.toString());
        if (blob == null) {
            throw Refusal.notFound("no blob " + digest);
        }
        return new BlobContent(digest, blob.size, OCTET_STREAM, store);
    }
}
