package dev.evidencestore.audit;

/**
 * The outcome of re-walking the audit log: how many entries and checkpoints were checked, the size and root hash
 * (base64) of the tree rebuilt from the entries, how many checkpoints published outside the database were read back
 * and checked, how many stored ones were never published (null when publishing is off) and, unless everything holds,
 * the first broken entry (null when only a checkpoint is at fault) and why.
 */
public record AuditVerdict(boolean intact, long entries, long treeSize, String rootHash, long checkpoints,
                           long publishedCheckpoints, Long unpublishedCheckpoints, Long firstBrokenSeq,
                           String reason) {

    static AuditVerdict of(long entries, long treeSize, String rootHash, long checkpoints, long published,
                           Long unpublished, ChainBreak broken) {
        return new AuditVerdict(broken == null, entries, treeSize, rootHash, checkpoints, published, unpublished,
                broken == null ? null : broken.seq(), broken == null ? null : broken.reason());
    }
}
