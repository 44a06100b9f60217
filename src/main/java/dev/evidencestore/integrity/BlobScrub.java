package dev.evidencestore.integrity;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.cluster.ClusterLock;
import dev.evidencestore.cluster.InstanceWork;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.persistence.BlobEntity;
import dev.evidencestore.persistence.ScrubPassEntity;
import dev.evidencestore.storage.BlobStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.persistence.EntityManager;
import org.apache.commons.codec.digest.DigestUtils;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * Re-hashes every stored blob, never-checked and least recently checked first, so that bit rot is found by the
 * service rather than by a reader who relies on the bytes. One instance scrubs at a time (cluster lock
 * {@code scrub}); a pass reads at most {@code evidence.scrub.rate} bytes per second, and records each blob as it
 * goes, so a pass cut short loses nothing and the next goes on with what was checked least recently.
 */
@ApplicationScoped
public class BlobScrub {

    /** The identity of the scheduled job, for pausing it. */
    public static final String JOB = "blob-scrub";

    private static final Logger LOG = Logger.getLogger(BlobScrub.class);
    private static final String LOCK = "scrub";
    private static final String FOUND_BY = "the scrub";
    private static final int BATCH = 100;
    private static final int BUFFER = 256 * 1024;

    private final BlobStore store;
    private final BlobIntegrity integrity;
    private final IntegrityStatus status;
    private final ClusterLock cluster;
    private final EntityManager entityManager;
    private final EvidenceConfig.Scrub config;
    private final Counter bytesRead;
    /** This instance's pass in progress: when the service stops, it ends at its next read, quietly. */
    private final InstanceWork scanning = new InstanceWork();

    BlobScrub(BlobStore store, BlobIntegrity integrity, IntegrityStatus status, ClusterLock cluster,
              EntityManager entityManager, EvidenceConfig config, MeterRegistry registry) {
        this.store = store;
        this.integrity = integrity;
        this.status = status;
        this.cluster = cluster;
        this.entityManager = entityManager;
        this.config = config.scrub();
        this.bytesRead = Counter.builder("evidence.scrub.bytes")
                .description("Bytes of stored blobs read and re-hashed by the scrub").register(registry);
    }

    @Scheduled(identity = JOB, every = "${evidence.scrub.interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            // a run that starts while the service stops only fails on a closing database pool
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void onSchedule() {
        if (!config.enabled()) {
            return;
        }
        scanning.runUnlessStopping(this::scanIfFree);
    }

    private void scanIfFree() {
        try {
            // every instance ticks; whoever finds the lock taken leaves the pass to its holder
            cluster.runIfFree(LOCK, () -> {
                if (due()) {
                    scan();
                }
            });
        } catch (RuntimeException e) {
            if (scanning.stopping()) {
                // the database pool closes under a pass the shutdown cut short: nothing is wrong with the blobs
                LOG.info("the scrub pass was cut short by the shutdown; the next one goes on where it stopped");
                return;
            }
            LOG.error("the scrub pass stopped; the next one goes on with the blobs checked least recently", e);
        }
    }

    /**
     * Ends a pass in progress at its next read and waits (at most {@link InstanceWork#STOP_WAIT}) until it has let go
     * of its transaction and the cluster lock's connection: the database pool and Hibernate close after this event,
     * and a pass still running then logged errors at shutdown.
     */
    void onStop(@Observes ShutdownEvent stopped) {
        scanning.stop();
    }

    /** One whole pass now, on this thread, after any other instance's pass has ended. */
    public ScrubResult pass() {
        return scanning.call(() -> cluster.runExclusively(LOCK, this::scan));
    }

    /**
     * Only when no pass started in the last half interval: each instance ticks every interval from its own start,
     * and without this rule a pass would run once per instance per interval, and again at every restart.
     */
    private boolean due() {
        Instant last = QuarkusTransaction.requiringNew().call(ScrubPassEntity::lastStartedAt);
        Duration half = config.interval().dividedBy(2);
        return last == null || last.isBefore(Instant.now().minus(half));
    }

    private ScrubResult scan() {
        Instant start = Clock.now();
        long id = QuarkusTransaction.requiringNew().call(() -> begin(start));
        Tally tally = new Tally(new ReadPace(config.rate().asLongValue()));
        boolean whole = walk(this::neverChecked, tally) && walk(after -> checkedBefore(start, after), tally);
        ScrubResult result = tally.result();
        if (!whole) {
            if (scanning.stopping()) {
                LOG.infof("the scrub pass was cut short by the shutdown after %d blobs; the next one goes on from "
                        + "there", result.blobs());
            } else {
                LOG.warnf("scrub pass interrupted after %d blobs; the next one goes on from there", result.blobs());
            }
            return result;
        }
        QuarkusTransaction.requiringNew().run(() -> finish(id, result));
        status.refresh();
        Duration took = Duration.between(start, Clock.now());
        if (result.damaged() > 0) {
            LOG.errorf("EVIDENCE DAMAGED: the scrub pass found %d of %d blobs damaged (%d bytes read in %s)",
                    result.damaged(), result.blobs(), result.bytes(), took);
        } else {
            LOG.infof("scrub pass: %d blobs sound (%d bytes read in %s)", result.blobs(), result.bytes(), took);
        }
        return result;
    }

    /** Checks every blob that {@code batchAfter} yields, a batch at a time; false when interrupted. */
    private boolean walk(Function<Stored, List<Stored>> batchAfter, Tally tally) {
        Stored last = null;
        while (true) {
            Stored after = last;
            List<Stored> batch = QuarkusTransaction.requiringNew().call(() -> batchAfter.apply(after));
            if (batch.isEmpty()) {
                return true;
            }
            for (Stored blob : batch) {
                if (scanning.stopping() || Thread.currentThread().isInterrupted()) {
                    return false;
                }
                Instant readFrom = Clock.now();
                Digest computed;
                try {
                    computed = rehash(blob, tally);
                } catch (Stopped e) {
                    return false;
                }
                tally.checked(integrity.record(blob.digest(), computed, FOUND_BY, readFrom));
                last = blob;
            }
        }
    }

    /** What the stored bytes hash to; null when they cannot be read, which is damage as much as changed bytes. */
    private Digest rehash(Stored blob, Tally tally) {
        MessageDigest sha256 = DigestUtils.getSha256Digest();
        try (InputStream in = store.stored().open(blob.digest(), 0, blob.size())) {
            int n;
            while ((n = in.read(tally.buffer)) >= 0) {
                if (scanning.stopping()) {
                    throw new Stopped();
                }
                sha256.update(tally.buffer, 0, n);
                bytesRead.increment(n);
                tally.pace.read(n);
            }
            return Digest.of(sha256.digest());
        } catch (IOException e) {
            if (BlobIntegrity.databaseFailed(e)) {
                // a lost connection says nothing about the bytes: stop rather than report sound blobs damaged
                throw new UncheckedIOException("the scrub cannot read the postgres blob store", e);
            }
            LOG.warnf("the stored bytes of %s could not be read: %s", blob.digest(), e);
            return null;
        }
    }

    private static long begin(Instant start) {
        ScrubPassEntity pass = new ScrubPassEntity();
        pass.startedAt = start;
        pass.persist();
        return pass.id;
    }

    private static void finish(long id, ScrubResult result) {
        ScrubPassEntity pass = ScrubPassEntity.findById(id);
        pass.finishedAt = Clock.now();
        pass.blobsChecked = result.blobs();
        pass.bytesRead = result.bytes();
        pass.damagedFound = result.damaged();
    }

    /** The service stops: the blob being read is left unchecked, neither sound nor damaged. */
    private static final class Stopped extends RuntimeException {
        Stopped() {
            super(null, null, false, false);
        }
    }

    /** A stored blob due for a check. */
    private record Stored(Digest digest, long size, Instant checkedAt) {
    }

    /** The running counts of a pass, its read pace and its one read buffer. */
    private static final class Tally {

        private final ReadPace pace;
        private final byte[] buffer = new byte[BUFFER];
        private long blobs;
        private long damaged;

        Tally(ReadPace pace) {
            this.pace = pace;
        }

        void checked(boolean wasDamaged) {
            blobs++;
            damaged += wasDamaged ? 1 : 0;
        }

        ScrubResult result() {
            return new ScrubResult(blobs, pace.bytes(), damaged);
        }
    }

    /** Blobs never checked, by digest after {@code after}. Keyed walks end whatever checks run beside them. */
    private List<Stored> neverChecked(Stored after) {
        return BlobEntity.neverChecked(after == null ? "" : after.digest().toString(), BATCH).stream()
                .map(row -> new Stored(Digest.parse(row.digest()), row.size(), null)).toList();
    }

    /** Blobs last checked before the pass started, least recently first, after {@code after}. */
    private List<Stored> checkedBefore(Instant start, Stored after) {
        Instant afterAt = after == null ? Instant.EPOCH : after.checkedAt();
        String afterDigest = after == null ? "" : after.digest().toString();
        return entityManager.createQuery("""
                        select i.digest, i.checkedAt, b.size from BlobIntegrityEntity i, BlobEntity b
                        where b.digest = i.digest and i.checkedAt < :start
                          and (i.checkedAt > :afterAt or (i.checkedAt = :afterAt and i.digest > :afterDigest))
                        order by i.checkedAt, i.digest""", Object[].class)
                .setParameter("start", start)
                .setParameter("afterAt", afterAt)
                .setParameter("afterDigest", afterDigest)
                .setMaxResults(BATCH)
                .getResultStream()
                .map(row -> new Stored(Digest.parse((String) row[0]), ((Number) row[2]).longValue(),
                        (Instant) row[1]))
                .toList();
    }
}
