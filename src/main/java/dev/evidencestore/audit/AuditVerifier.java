package dev.evidencestore.audit;

import dev.evidencestore.domain.AuditCheckpoint;
import dev.evidencestore.persistence.AuditCheckpointEntity;
import dev.evidencestore.persistence.AuditEntryEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;

/**
 * Re-walks the whole audit chain and every checkpoint. Entries are read a page at a time, each page in a short
 * transaction of its own, so neither memory nor a database transaction grows with the length of the chain.
 */
@ApplicationScoped
public class AuditVerifier {

    private static final int PAGE = 500;

    private final AuditLog log;

    AuditVerifier(AuditLog log) {
        this.log = log;
    }

    public AuditVerdict verify() {
        // fix the bounds first, checkpoints before entries, so every checkpoint checked covers only entries walked
        long lastCheckpoint = QuarkusTransaction.requiringNew().call(AuditVerifier::lastCheckpointId);
        long lastSeq = QuarkusTransaction.requiringNew().call(AuditVerifier::lastSeq);
        ChainWalk walk = new ChainWalk();
        long after = 0;
        List<AuditEntry> page;
        do {
            page = log.range(after, lastSeq, PAGE);
            page.forEach(walk::next);
            after = page.isEmpty() ? after : page.get(page.size() - 1).seq();
        } while (page.size() == PAGE);
        ChainBreak broken = walk.finish();
        Checked checkpoints = checkCheckpoints(lastCheckpoint);
        return AuditVerdict.of(walk.entries(), checkpoints.count(), broken != null ? broken : checkpoints.broken());
    }

    /** Checks checkpoints in the order they were written, which is also the order of their chain lengths. */
    private static Checked checkCheckpoints(long upToId) {
        long count = 0;
        ChainBreak first = null;
        long afterId = 0;
        List<CheckedCheckpoint> page;
        do {
            long from = afterId;
            page = QuarkusTransaction.requiringNew().call(() -> checkpointPage(from, upToId));
            for (CheckedCheckpoint checked : page) {
                count++;
                first = first != null ? first : checked.broken();
                afterId = checked.id();
            }
        } while (page.size() == PAGE);
        return new Checked(count, first);
    }

    private static List<CheckedCheckpoint> checkpointPage(long afterId, long upToId) {
        List<CheckedCheckpoint> checked = new ArrayList<>();
        for (AuditCheckpointEntity row : AuditCheckpointEntity.<AuditCheckpointEntity>find(
                "id > ?1 and id <= ?2 order by id", afterId, upToId).range(0, PAGE - 1).list()) {
            checked.add(new CheckedCheckpoint(row.id, check(row.toCheckpoint())));
        }
        return checked;
    }

    private static ChainBreak check(AuditCheckpoint checkpoint) {
        String which = "the checkpoint of " + checkpoint.at() + " over " + checkpoint.chainLength() + " entries";
        if (!CheckpointPayload.signatureHolds(checkpoint)) {
            return new ChainBreak(null, which + " does not carry a valid signature by its public key");
        }
        long length = checkpoint.chainLength();
        if (length == 0) {
            return checkpoint.headHash().equals(ChainHash.GENESIS) ? null
                    : new ChainBreak(null, which + " signs a head hash although it covers no entries");
        }
        AuditEntryEntity head = AuditEntryEntity.findById(length);
        if (head == null) {
            return new ChainBreak(length, "entry " + length + ", the head signed by " + which + ", is missing");
        }
        if (!head.entryHash.equals(checkpoint.headHash())) {
            return new ChainBreak(length, "entry " + length + " is not the head signed by " + which
                    + ": the chain up to it was rewritten, hashes recomputed, after it was signed");
        }
        return null;
    }

    private static long lastCheckpointId() {
        AuditCheckpointEntity last = AuditCheckpointEntity.<AuditCheckpointEntity>find("order by id desc")
                .firstResult();
        return last == null ? 0 : last.id;
    }

    private static long lastSeq() {
        AuditEntryEntity head = AuditEntryEntity.head();
        return head == null ? 0 : head.seq;
    }

    private record CheckedCheckpoint(long id, ChainBreak broken) {
    }

    private record Checked(long count, ChainBreak broken) {
    }
}
