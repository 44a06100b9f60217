package dev.evidencestore.audit;

import dev.evidencestore.domain.AuditCheckpoint;
import dev.evidencestore.persistence.AuditCheckpointEntity;
import dev.evidencestore.persistence.AuditEntryEntity;
import dev.evidencestore.persistence.AuditTreeCheckpointEntity;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Checks checkpoints against the trusted keys and the verified tree: the stored ones, the chain checkpoints written
 * before the tree, and one a caller holds. A checkpoint the log is not a consistent extension of is a break, named by
 * the checkpoint and its size. Run after the walk has compared every stored node with the entries, so a root read
 * from the stored nodes is the root of the entries.
 */
@ApplicationScoped
class CheckpointChecks {

    private static final int PAGE = 500;

    private final TrustedKeys keys;

    CheckpointChecks(TrustedKeys keys) {
        this.keys = keys;
    }

    record Checked(long count, ChainBreak broken) {
    }

    Checked all(long legacyUpTo, long treeUpTo, long leaves, Optional<HeldCheckpoint> held) {
        long count = 0;
        ChainBreak first = null;
        long afterId = 0;
        List<AuditCheckpointEntity> legacy;
        do {
            long from = afterId;
            legacy = QuarkusTransaction.requiringNew().call(() -> AuditCheckpointEntity.<AuditCheckpointEntity>find(
                    "id > ?1 and id <= ?2 order by id", from, legacyUpTo).range(0, PAGE - 1).list());
            for (AuditCheckpointEntity row : legacy) {
                count++;
                ChainBreak broken = QuarkusTransaction.requiringNew().call(() -> legacy(row.toCheckpoint()));
                first = first != null ? first : broken;
                afterId = row.id;
            }
        } while (legacy.size() == PAGE);
        afterId = 0;
        List<AuditTreeCheckpointEntity> tree;
        do {
            long from = afterId;
            tree = QuarkusTransaction.requiringNew().call(() -> AuditTreeCheckpointEntity.after(from, treeUpTo, PAGE));
            for (AuditTreeCheckpointEntity row : tree) {
                count++;
                ChainBreak broken = QuarkusTransaction.requiringNew().call(() -> stored(row, leaves));
                first = first != null ? first : broken;
                afterId = row.id;
            }
        } while (tree.size() == PAGE);
        if (held.isPresent()) {
            count++;
            ChainBreak broken = QuarkusTransaction.requiringNew().call(() -> extended(held.get(),
                    "the checkpoint sent with the request", leaves));
            first = first != null ? first : broken;
        }
        return new Checked(count, first);
    }

    private ChainBreak stored(AuditTreeCheckpointEntity row, long leaves) {
        String which = "the checkpoint of " + row.at + " over " + row.treeSize + " entries";
        HeldCheckpoint checkpoint;
        try {
            checkpoint = HeldCheckpoint.parse(row.note);
        } catch (RuntimeException e) {
            return new ChainBreak(null, which + " is not a signed note any more: its row was altered");
        }
        if (checkpoint.checkpoint().size() != row.treeSize
                || !Arrays.equals(checkpoint.checkpoint().rootHash(), row.rootHash)) {
            return new ChainBreak(null, which + " does not hold what its note signs: its row was altered");
        }
        return extended(checkpoint, which, leaves);
    }

    /** Whether the log is a consistent extension of a signed checkpoint; in a transaction, as it reads the tree. */
    ChainBreak extended(HeldCheckpoint held, String which, long leaves) {
        if (keys.signerOf(held.note()).isEmpty()) {
            return new ChainBreak(null, which + " is not signed by a trusted key (GET /api/v1/audit/keys lists them)");
        }
        if (!held.checkpoint().origin().equals(keys.origin())) {
            return new ChainBreak(null, which + " is of the log " + held.checkpoint().origin() + ", not of "
                    + keys.origin());
        }
        long size = held.checkpoint().size();
        if (size > leaves) {
            return new ChainBreak(leaves + 1, "the log has " + leaves + " entries, but " + which + " covers " + size
                    + ": entries after " + leaves + " were removed");
        }
        if (!Arrays.equals(AuditTree.root(size), held.checkpoint().rootHash())) {
            return new ChainBreak(null, "the log's first " + size + " entries are not those " + which
                    + " signed: the log was rewritten since");
        }
        return null;
    }

    private ChainBreak legacy(AuditCheckpoint checkpoint) {
        String which = "the chain checkpoint of " + checkpoint.at() + " over " + checkpoint.chainLength() + " entries";
        if (keys.byX509(checkpoint.publicKey()).isEmpty()) {
            return new ChainBreak(null, which + " is signed by a key that is not trusted");
        }
        if (!CheckpointPayload.signatureHolds(checkpoint)) {
            return new ChainBreak(null, which + " does not carry a valid signature by its key");
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
}
