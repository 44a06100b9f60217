package dev.evidencestore.audit;

/**
 * The outcome of re-walking the audit log: how many entries and checkpoints were checked, the size and root hash
 * (base64) of the tree rebuilt from the entries and, unless everything holds, the first broken entry (null when
 * only a checkpoint is at fault) and why.
 */
public record AuditVerdict(boolean intact, long entries, long treeSize, String rootHash, long checkpoints,
                           Long firstBrokenSeq, String reason) {

    static AuditVerdict of(long entries, long treeSize, String rootHash, long checkpoints, ChainBreak broken) {
        return broken == null ? new AuditVerdict(true, entries, treeSize, rootHash, checkpoints, null, null)
                : new AuditVerdict(false, entries, treeSize, rootHash, checkpoints, broken.seq(), broken.reason());
    }
}
