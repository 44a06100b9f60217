package dev.evidencestore.http;

import dev.evidencestore.cluster.ClusterLock;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.concurrent.TimeUnit;

/**
 * Forgets Idempotency-Keys once evidence.idempotency.retention has passed, so the table holds about a day of creates.
 * A key past it is free even before the sweep: claiming it replaces the old record.
 */
@ApplicationScoped
public class ExpiredKeys {

    private static final Logger LOG = Logger.getLogger(ExpiredKeys.class);

    private final IdempotencyRecords records;
    private final ClusterLock cluster;

    ExpiredKeys(IdempotencyRecords records, ClusterLock cluster) {
        this.records = records;
        this.cluster = cluster;
    }

    @Scheduled(every = "10m", delay = 2, delayUnit = TimeUnit.MINUTES,
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            // a run that starts while the service stops only fails on a closing database pool
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void onSchedule() {
        // one instance sweeps at a time; the others find the lock taken and leave it to the holder
        cluster.runIfFree("idempotency-sweep", this::sweep);
    }

    void sweep() {
        try {
            int removed = records.sweep();
            if (removed > 0) {
                LOG.infof("forgot %d expired Idempotency-Key record(s)", removed);
            }
        } catch (RuntimeException e) {
            LOG.warn("could not sweep expired Idempotency-Key records; will try again", e);
        }
    }
}
