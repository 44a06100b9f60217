package dev.evidencestore.storage;

import dev.evidencestore.EvidenceConfig;
import io.agroal.api.AgroalDataSource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import org.jboss.logging.Logger;

/** Chooses the blob backend named by {@code evidence.storage.backend}. */
@ApplicationScoped
public class BlobStoreProducer {

    private static final Logger LOG = Logger.getLogger(BlobStoreProducer.class);

    @Produces
    @ApplicationScoped
    BlobStore blobStore(EvidenceConfig config, AgroalDataSource dataSource) {
        EvidenceConfig.Storage storage = config.storage();
        LOG.infof("blob storage backend: %s", storage.backend());
        return switch (storage.backend()) {
            case POSTGRES -> new PostgresBlobStore(dataSource, (int) storage.postgres().chunkSize().asLongValue(),
                    storage.postgres().maxConcurrentUploads(), storage.postgres().uploadSlotWait());
            case FILESYSTEM -> new FilesystemBlobStore(storage.filesystem().path());
        };
    }
}
