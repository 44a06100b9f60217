package dev.evidencestore.integrity;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.cluster.ClusterLock;
import dev.evidencestore.storage.BlobStore;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.time.Duration;

/**
 * Clears what uploads interrupted by a crash left in the blob store, once they have been idle long enough that no
 * live upload (on this or another instance) can own them. Nothing acknowledged is ever touched: acknowledged blobs
 * are never temp files.
 */
@ApplicationScoped
public class AbandonedUploads {

    private static final Logger LOG = Logger.getLogger(AbandonedUploads.class);

    private final BlobStore store;
    private final ClusterLock cluster;
    private final Duration idle;

    AbandonedUploads(BlobStore store, ClusterLock cluster, EvidenceConfig config) {
        this.store = store;
        this.cluster = cluster;
        this.idle = switch (config.storage().backend()) {
            case S3 -> config.storage().s3().abandonedUploadAfter();
            case FILESYSTEM, POSTGRES -> config.storage().filesystem().abandonedUploadAfter();
        };
    }

    @Scheduled(every = "${evidence.storage.sweep-interval}", delayed = "${evidence.storage.sweep-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            // a run that starts while the service stops only fails on a closing database pool
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void onSchedule() {
        // instances sharing one store take turns; whoever finds the lock taken leaves the sweep to its holder
        cluster.runIfFree("abandoned-uploads", this::sweep);
    }

    void sweep() {
        try {
            int removed = store.removeAbandonedUploads(idle);
            if (removed > 0) {
                LOG.infof("removed %d abandoned upload(s) idle for more than %s", removed, idle);
            }
        } catch (IOException e) {
            LOG.warn("could not sweep abandoned uploads; will try again", e);
        }
    }
}
