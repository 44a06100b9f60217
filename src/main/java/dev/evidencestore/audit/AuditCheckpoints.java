package dev.evidencestore.audit;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.AuditCheckpoint;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.persistence.AuditCheckpointEntity;
import dev.evidencestore.persistence.AuditEntryEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Signed checkpoints of the audit chain: on demand, and every {@code evidence.audit.checkpoint-interval}. Writing
 * one takes the chain lock, so the head it signs is the head, and instances that fire at the same moment write one
 * after the other rather than side by side.
 */
@ApplicationScoped
public class AuditCheckpoints {

    /** The identity of the scheduled job, for pausing it. */
    public static final String JOB = "audit-checkpoint";

    private static final Logger LOG = Logger.getLogger(AuditCheckpoints.class);

    private final AuditSigner signer;
    private final Duration interval;

    AuditCheckpoints(AuditSigner signer, EvidenceConfig config) {
        this.signer = signer;
        this.interval = config.audit().checkpointInterval();
    }

    /** A checkpoint now, even if nothing was appended since the last: it attests that the chain still ends there. */
    public AuditCheckpoint create() {
        return QuarkusTransaction.joiningExisting().call(() -> {
            ChainLock.acquire();
            return write(AuditEntryEntity.head());
        });
    }

    @Transactional
    public Optional<AuditCheckpoint> latest() {
        return Optional.ofNullable(latestRow()).map(AuditCheckpointEntity::toCheckpoint);
    }

    @Scheduled(identity = JOB, every = "${evidence.audit.checkpoint-interval}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            // a run that starts while the service stops only fails on a closing database pool
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void onSchedule() {
        try {
            QuarkusTransaction.requiringNew().run(() -> {
                ChainLock.acquire();
                AuditEntryEntity head = AuditEntryEntity.head();
                if (due(head, latestRow())) {
                    AuditCheckpoint written = write(head);
                    LOG.infof("audit checkpoint written: %d entries, head %s", written.chainLength(),
                            written.headHash());
                }
            });
        } catch (RuntimeException e) {
            LOG.error("the scheduled audit checkpoint could not be written", e);
        }
    }

    /**
     * Only when entries were appended since the last checkpoint, and that one is at least half an interval old:
     * every instance runs the schedule, and without the second rule each would add a checkpoint per interval.
     */
    private boolean due(AuditEntryEntity head, AuditCheckpointEntity last) {
        if (head == null) {
            return false;
        }
        return last == null || (last.chainLength < head.seq
                && !last.at.isAfter(Instant.now().minus(interval.dividedBy(2))));
    }

    private AuditCheckpoint write(AuditEntryEntity head) {
        AuditCheckpoint checkpoint = head == null ? signer.sign(0, ChainHash.GENESIS, Clock.now())
                : signer.sign(head.seq, head.entryHash, Clock.now());
        AuditCheckpointEntity.of(checkpoint).persist();
        return checkpoint;
    }

    private static AuditCheckpointEntity latestRow() {
        return AuditCheckpointEntity.<AuditCheckpointEntity>find("order by id desc").firstResult();
    }
}
