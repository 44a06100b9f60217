package dev.evidencestore.audit;

import dev.evidencestore.domain.Clock;
import dev.evidencestore.persistence.AuditEntryEntity;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * This instance's one writer of audit entries. Entries appended at the same moment are chained and committed together,
 * in one transaction under the chain lock: the lock is what keeps every instance on one chain, and taking it once per
 * entry made every write of the service queue behind every other (a group commit, as databases do with their logs).
 * Each caller still waits until its own entry has committed.
 */
@ApplicationScoped
class AuditWriter {

    private static final Logger LOG = Logger.getLogger(AuditWriter.class);
    private static final int MAX_BATCH = 500;
    private static final long WAIT_SECONDS = 30;

    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private Thread thread;

    private record Pending(AuditEvent event, CompletableFuture<AuditEntry> written) {
    }

    /** Appends {@code event} to the chain and returns its entry once committed. */
    AuditEntry append(AuditEvent event) {
        Pending pending = new Pending(event, new CompletableFuture<>());
        ensureRunning();
        queue.add(pending);
        try {
            return pending.written().get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the audit entry was not written within " + WAIT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the audit entry was written", e);
        }
    }

    private synchronized void ensureRunning() {
        if (thread == null || !thread.isAlive()) {
            thread = new Thread(this::run, "audit-writer");
            thread.setDaemon(true);
            thread.start();
        }
    }

    @PreDestroy
    synchronized void stop() {
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void run() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                List<Pending> batch = new ArrayList<>();
                batch.add(queue.take());
                queue.drainTo(batch, MAX_BATCH - 1);
                write(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        queue.forEach(left -> left.written().completeExceptionally(new IllegalStateException("the service stopped")));
    }

    private void write(List<Pending> batch) {
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            List<AuditEntry> entries = QuarkusTransaction.requiringNew().call(() -> chain(batch));
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).written().complete(entries.get(i));
            }
        } catch (RuntimeException e) {
            if (batch.size() == 1) {
                batch.get(0).written().completeExceptionally(e);
            } else {
                // one bad entry must not cost the others theirs: write them one by one
                LOG.warnf("a batch of %d audit entries failed (%s); writing them one by one", batch.size(), e);
                batch.forEach(single -> write(List.of(single)));
            }
        } finally {
            requestContext.terminate();
        }
    }

    private List<AuditEntry> chain(List<Pending> batch) {
        ChainLock.acquire();
        AuditEntryEntity head = AuditLog.head();
        long seq = head == null ? 0 : head.seq;
        String previous = head == null ? ChainHash.GENESIS : head.entryHash;
        List<AuditEntry> entries = new ArrayList<>(batch.size());
        for (Pending pending : batch) {
            AuditEntry entry = AuditEntry.chain(++seq, Clock.now(), pending.event(), previous);
            entry.toRow().persist();
            previous = entry.entryHash();
            entries.add(entry);
        }
        return entries;
    }
}
