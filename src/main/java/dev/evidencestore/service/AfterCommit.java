package dev.evidencestore.service;

import jakarta.transaction.Status;
import jakarta.transaction.Synchronization;
import jakarta.transaction.TransactionSynchronizationRegistry;

/**
 * What a cache may keep only once the current transaction has committed: a transaction that rolls back leaves
 * nothing behind in memory either.
 */
final class AfterCommit {

    private AfterCommit() {
    }

    /** Runs {@code action} after the current transaction commits, and never if it rolls back. */
    static void run(TransactionSynchronizationRegistry transactions, Runnable action) {
        transactions.registerInterposedSynchronization(new Synchronization() {
            @Override
            public void beforeCompletion() {
                // nothing to do before: only a committed transaction counts
            }

            @Override
            public void afterCompletion(int status) {
                if (status == Status.STATUS_COMMITTED) {
                    action.run();
                }
            }
        });
    }
}
