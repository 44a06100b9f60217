package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditTreeCheckpointEntity;
import dev.evidencestore.storage.Anchor;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Publishes stored checkpoints to the anchor ({@code evidence.audit.publish}), where the database cannot rewrite
 * them. A checkpoint is published only after its transaction commits, so nothing is published that the database
 * does not hold; a publish that fails is logged at ERROR and retried with the next checkpoint or the next scheduled
 * run, from the oldest checkpoint this instance has not seen published. Each instance keeps that mark in memory and
 * starts from the first checkpoint: publishing what is published already only finds the same bytes there.
 */
@ApplicationScoped
class CheckpointPublisher {

    private static final Logger LOG = Logger.getLogger(CheckpointPublisher.class);
    private static final int PAGE = 100;
    /** A backlog (a long outage of the anchor, a first start) is worked off over several runs. */
    private static final int MAX_PER_RUN = 1000;

    private final Anchor anchor;
    /** Every checkpoint up to this id is published; guarded by {@code this}. */
    private long publishedThrough;

    CheckpointPublisher(Anchor anchor) {
        this.anchor = anchor;
    }

    void onWritten(@Observes(during = TransactionPhase.AFTER_SUCCESS) CheckpointWritten written) {
        publishPending();
    }

    /** Publishes up to {@link #MAX_PER_RUN} checkpoints not yet published, oldest first; never throws. */
    synchronized void publishPending() {
        if (!anchor.enabled()) {
            return;
        }
        int done = 0;
        String last = null;
        try {
            List<AuditTreeCheckpointEntity> page;
            do {
                long after = publishedThrough;
                page = QuarkusTransaction.requiringNew().call(() -> AuditTreeCheckpointEntity.after(after,
                        Long.MAX_VALUE, PAGE));
                for (AuditTreeCheckpointEntity row : page) {
                    String name = new PublishedName(row.treeSize, row.keyId).toString();
                    if (!name.equals(last)) {
                        // checkpoints written one after the other without new entries share a name and a note
                        anchor.publish(name, row.note.getBytes(StandardCharsets.UTF_8));
                        last = name;
                    }
                    publishedThrough = row.id;
                    done++;
                }
            } while (page.size() == PAGE && done < MAX_PER_RUN);
        } catch (IOException | RuntimeException e) {
            LOG.errorf(e, "AUDIT CHECKPOINT NOT PUBLISHED: the checkpoints after id %d could not be published to "
                    + "%s; retried with the next checkpoint and every evidence.audit.checkpoint-interval. Until "
                    + "then the log is anchored only up to the last published checkpoint", publishedThrough,
                    anchor.locate(""));
        }
    }
}
