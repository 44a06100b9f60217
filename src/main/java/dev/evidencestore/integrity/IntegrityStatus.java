package dev.evidencestore.integrity;

import dev.evidencestore.persistence.BlobIntegrityEntity;
import dev.evidencestore.persistence.ScrubPassEntity;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which stored blobs are damaged and when the last scrub pass finished, as last read. The readiness check, the
 * metrics and every download read this copy, never the database, so they answer at once even while the database is
 * down and a read costs no query. It is read again every 30 seconds, so every instance soon knows what any of them
 * found, and at once on the instance where a check changed a blob's state or a scrub pass ended. In the seconds
 * before another instance's finding arrives, a whole download still hashes the bytes it serves and cuts the
 * transfer short if they do not match.
 */
@Startup
@ApplicationScoped
public class IntegrityStatus {

    private static final Logger LOG = Logger.getLogger(IntegrityStatus.class);

    private final EntityManager entityManager;
    private volatile Known known;

    IntegrityStatus(EntityManager entityManager, MeterRegistry registry) {
        this.entityManager = entityManager;
        Gauge.builder("evidence.blobs.damaged", this, status -> status.known()
                        .map(k -> (double) k.damagedBlobs()).orElse(Double.NaN))
                .description("Stored blobs whose bytes did not hash to their digest at their last check")
                .register(registry);
        Gauge.builder("evidence.scrub.last.finished", this, status -> status.known()
                        .map(Known::lastScrub).map(at -> at.toEpochMilli() / 1000.0).orElse(Double.NaN))
                .description("When the last complete scrub pass finished, in seconds since the epoch")
                .baseUnit("seconds")
                .register(registry);
    }

    /** The counts as last read; empty until the database has answered once. */
    public Optional<Known> known() {
        return Optional.ofNullable(known);
    }

    // a count that starts while the service stops only fails on a closing database pool
    @Scheduled(every = "30s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void onSchedule() {
        refresh();
    }

    /** Counts again; keeps the previous counts when the database cannot answer. */
    public void refresh() {
        try {
            known = QuarkusTransaction.requiringNew().call(this::count);
        } catch (RuntimeException e) {
            LOG.warnf("could not count damaged blobs; keeping the counts of %s: %s",
                    known == null ? "never" : known.countedAt(), e.getMessage());
        }
    }

    private Known count() {
        Map<String, Instant> damaged = new HashMap<>();
        entityManager.createQuery("from BlobIntegrityEntity where damaged = true", BlobIntegrityEntity.class)
                .getResultStream().forEach(row -> damaged.put(row.digest, row.damagedSince));
        return new Known(Map.copyOf(damaged), ScrubPassEntity.lastFinishedAt(), Instant.now());
    }

    /**
     * The damaged blobs (digest to since when), when the last complete scrub finished (null before the first), and
     * when this was read.
     */
    public record Known(Map<String, Instant> damaged, Instant lastScrub, Instant countedAt) {

        public long damagedBlobs() {
            return damaged.size();
        }
    }
}
