package dev.evidencestore.audit;

/**
 * The outcome of re-walking the audit chain: how many entries and checkpoints were checked and, unless everything
 * holds, the first broken entry (null when only a checkpoint is at fault) and why.
 */
public record AuditVerdict(boolean intact, long entries, long checkpoints, Long firstBrokenSeq, String reason) {

    static AuditVerdict of(long entries, long checkpoints, ChainBreak broken) {
        return broken == null ? new AuditVerdict(true, entries, checkpoints, null, null)
                : new AuditVerdict(false, entries, checkpoints, broken.seq(), broken.reason());
    }
}
