package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditEntryEntity;

/**
 * The PostgreSQL advisory lock under which entries are appended and checkpoints written, by whichever instance of
 * the service: a lock in memory would not keep two instances from giving out the same {@code seq}. It is held until
 * the transaction ends, so the next holder reads the head the last one committed.
 */
final class ChainLock {

    /** An arbitrary key that nothing else in this database locks: "evidaudt" in ASCII. */
    private static final long KEY = 0x6576_6964_6175_6474L;

    private ChainLock() {
    }

    static void acquire() {
        AuditEntryEntity.lockForTransaction(KEY);
    }
}
