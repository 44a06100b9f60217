package dev.evidencestore.audit;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.cluster.InstanceWork;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.LogCheckpoint;
import dev.evidencestore.persistence.AuditTreeCheckpointEntity;
import dev.evidencestore.persistence.AuditTreeNodes;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.event.Observes;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * Signed checkpoints of the audit log's Merkle tree, C2SP tlog-checkpoints as signed notes: on demand, and every
 * {@code evidence.audit.checkpoint-interval} when entries were added. Writing one takes the chain lock, so the tree
 * it signs is the tree, and instances that fire at the same moment write one after the other. Once its transaction
 * commits, a checkpoint is published outside the database ({@link CheckpointPublisher}); each scheduled run retries
 * what could not be published before.
 */
@ApplicationScoped
public class AuditCheckpoints {

    /** The identity of the scheduled job, for pausing it. */
    public static final String JOB = "audit-checkpoint";

    private static final Logger LOG = Logger.getLogger(AuditCheckpoints.class);

    private final TrustedKeys keys;
    private final AuditLog log;
    private final Duration interval;
    private final Event<CheckpointWritten> written;
    private final CheckpointPublisher publisher;
    /** A scheduled run in progress, which the shutdown waits for. */
    private final InstanceWork scheduled = new InstanceWork();

    AuditCheckpoints(TrustedKeys keys, AuditLog log, EvidenceConfig config, Event<CheckpointWritten> written,
                     CheckpointPublisher publisher) {
        this.keys = keys;
        this.log = log;
        this.interval = config.audit().checkpointInterval();
        this.written = written;
        this.publisher = publisher;
    }

    /**
     * A checkpoint of every entry committed so far, in the current transaction or a new one, even if nothing was
     * added since the last: it attests that the log still ends there.
     */
    public LogCheckpoint create() {
        log.awaitSequenced();
        return QuarkusTransaction.joiningExisting().call(() -> {
            ChainLock.acquire();
            return write(AuditTreeNodes.leafCount());
        });
    }

    @Transactional
    public Optional<LogCheckpoint> latest() {
        return Optional.ofNullable(AuditTreeCheckpointEntity.latest()).map(AuditCheckpoints::of);
    }

    @Scheduled(identity = JOB, every = "${evidence.audit.checkpoint-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            // a run that starts while the service stops only fails on a closing database pool
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void onSchedule() {
        scheduled.runUnlessStopping(this::writeIfDue);
    }

    /**
     * Waits (at most {@link InstanceWork#STOP_WAIT}) for a scheduled checkpoint under way, and keeps any from
     * starting: a run still going as Hibernate closed (a stop right after the start, as the benchmark's start-up runs
     * do) logged an ERROR for a persistence unit already gone.
     */
    void onStop(@Observes ShutdownEvent stopped) {
        scheduled.stop();
    }

    private void writeIfDue() {
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                ChainLock.acquire();
                long size = AuditTreeNodes.leafCount();
                if (due(size, AuditTreeCheckpointEntity.latest())) {
                    LogCheckpoint written = write(size);
                    LOG.infof("audit checkpoint written: %d entries, root %s", written.treeSize(),
                            written.rootHash());
                }
            });
        } catch (RuntimeException e) {
            LOG.error("the scheduled audit checkpoint could not be written", e);
        }
        // also when none was due: checkpoints whose publishing failed before are retried here
        publisher.publishPending();
    }

    /**
     * The first checkpoint, so that witnesses have one to start from; later only when entries were added since the
     * last, and that one is at least half an interval old: every instance runs the schedule, and without the
     * second rule each would add a checkpoint per interval.
     */
    private boolean due(long size, AuditTreeCheckpointEntity last) {
        return last == null || (last.treeSize < size
                && !last.at.isAfter(Instant.now().minus(interval.dividedBy(2))));
    }

    private LogCheckpoint write(long size) {
        byte[] root = AuditTree.root(size);
        String note = keys.sign(new Checkpoint(keys.origin(), size, root).body());
        AuditTreeCheckpointEntity row = new AuditTreeCheckpointEntity();
        row.at = Clock.now();
        row.treeSize = size;
        row.rootHash = root;
        row.keyId = keys.signing().keyId();
        row.note = note;
        row.persist();
        // published once the transaction commits, whichever transaction it is
        written.fire(new CheckpointWritten(row.id));
        return of(row);
    }

    private static LogCheckpoint of(AuditTreeCheckpointEntity row) {
        return new LogCheckpoint(Checkpoint.parse(SignedNote.parse(row.note).body()).origin(),
                row.treeSize, Base64.getEncoder().encodeToString(row.rootHash), row.keyId, row.note, row.at);
    }
}
