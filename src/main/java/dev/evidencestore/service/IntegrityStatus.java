package dev.evidencestore.service;

import dev.evidencestore.domain.ScrubPassEntity;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.Startup;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import org.jboss.logging.Logger;

import java.time.Instant;
import java.util.Optional;

/**
 * How many stored blobs are damaged and when the last scrub pass finished, as last counted. The readiness check and
 * the metrics read this copy, never the database, so they answer at once even while the database is down. It is
 * recounted every 30 seconds, so every instance soon shows what any of them found, and at once on the instance
 * where a check changed a blob's state or a scrub pass ended.
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

    @Scheduled(every = "30s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
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
        long damaged = ((Number) entityManager.createNativeQuery(
                "SELECT count(*) FROM blob_integrity WHERE damaged").getSingleResult()).longValue();
        return new Known(damaged, ScrubPassEntity.lastFinishedAt(), Instant.now());
    }

    /** Damaged blobs, when the last complete scrub finished (null before the first), and when this was counted. */
    public record Known(long damagedBlobs, Instant lastScrub, Instant countedAt) {
    }
}
