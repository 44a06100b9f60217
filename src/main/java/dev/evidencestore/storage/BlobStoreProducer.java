package dev.evidencestore.storage;

import dev.evidencestore.EvidenceConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import org.jboss.logging.Logger;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

import java.io.Closeable;
import java.io.IOException;

/** Chooses the blob backend named by {@code evidence.storage.backend}. */
@ApplicationScoped
public class BlobStoreProducer {

    private static final Logger LOG = Logger.getLogger(BlobStoreProducer.class);

    /** S3's smallest part (but the last) and most parts per upload. */
    private static final long MIN_PART = 5L * 1024 * 1024;
    private static final long MAX_PARTS = 10_000;
    /** A part is one byte array. */
    private static final long MAX_PART = 1024L * 1024 * 1024;
    /**
     * Each streaming download holds one connection, and each upload one per part in flight: as many as Quarkus's
     * default worker threads, well above what admission lets in.
     */
    private static final int MAX_CONNECTIONS = 200;

    @Produces
    @ApplicationScoped
    BlobStore blobStore(EvidenceConfig config, AgroalDataSource dataSource) {
        EvidenceConfig.Storage storage = config.storage();
        LOG.infof("blob storage backend: %s", storage.backend());
        BlobStore backend = backend(config, dataSource);
        long memory = config.cache().smallBlobs().asLongValue();
        return memory == 0 ? backend
                : new SmallBlobCache(backend, config.cache().smallBlobMaxSize().asLongValue(), memory);
    }

    private static BlobStore backend(EvidenceConfig config, AgroalDataSource dataSource) {
        EvidenceConfig.Storage storage = config.storage();
        return switch (storage.backend()) {
            case POSTGRES -> new PostgresBlobStore(dataSource, (int) storage.postgres().chunkSize().asLongValue(),
                    storage.postgres().maxConcurrentUploads(), storage.postgres().uploadSlotWait(),
                    storage.postgres().maxStreamingReads());
            case FILESYSTEM -> new FilesystemBlobStore(storage.filesystem().path());
            case S3 -> s3(storage.s3(), config.blob().maxSize().asLongValue());
        };
    }

    void close(@Disposes BlobStore store) throws IOException {
        if (store.stored() instanceof Closeable closeable) {
            closeable.close();
        }
    }

    private static S3BlobStore s3(EvidenceConfig.Storage.S3 s3, long maxBlobSize) {
        String bucket = s3.bucket().orElseThrow(() -> new IllegalStateException(
                "the s3 backend needs evidence.storage.s3.bucket (EVIDENCE_STORAGE_S3_BUCKET)"));
        long partSize = s3.partSize().asLongValue();
        checkTransfer(s3, partSize, maxBlobSize);
        S3ClientBuilder client = S3Connection.builder(s3)
                .httpClientBuilder(ApacheHttpClient.builder().maxConnections(MAX_CONNECTIONS)
                        .socketFactory(S3TlsSockets.withDefaultTrust()));
        LOG.infof("s3 bucket %s, prefix '%s', endpoint %s", bucket, s3.prefix().orElse(""),
                s3.endpoint().map(Object::toString).orElse("of AWS region " + s3.region()));
        boolean overTls = s3.endpoint().map(endpoint -> "https".equalsIgnoreCase(endpoint.getScheme())).orElse(true);
        return new S3BlobStore(client.build(), bucket, s3.prefix().orElse(""), (int) partSize, s3.partsInFlight(),
                s3.sendAheadMemory().asLongValue(), overTls, s3.conditionalWritesHonoured());
    }

    private static void checkTransfer(EvidenceConfig.Storage.S3 s3, long partSize, long maxBlobSize) {
        if (partSize < MIN_PART || partSize > MAX_PART) {
            throw new IllegalStateException("evidence.storage.s3.part-size must be between 5M and 1G, not " + partSize);
        }
        if (maxBlobSize > partSize * MAX_PARTS) {
            throw new IllegalStateException("S3 takes at most " + MAX_PARTS + " parts, so blobs of "
                    + "evidence.blob.max-size need evidence.storage.s3.part-size of at least "
                    + (maxBlobSize + MAX_PARTS - 1) / MAX_PARTS + " bytes");
        }
        if (s3.partsInFlight() < 1) {
            throw new IllegalStateException("evidence.storage.s3.parts-in-flight must be at least 1, not "
                    + s3.partsInFlight());
        }
    }
}
