package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditEntryEntity;
import dev.evidencestore.persistence.AuditEntryEntity.ChainTip;
import dev.evidencestore.persistence.AuditPendingEntity;
import dev.evidencestore.persistence.AuditTreeNodes;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.Node;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives pending audit entries their place in the log: under the chain lock, in one transaction per batch, it numbers
 * them, chains them, adds their leaves and the subtrees they complete to the Merkle tree, and removes them from the
 * pending table. Every instance runs one; the lock keeps them on one log, and whichever holds it sequences every
 * instance's entries (a group commit, as databases do with their logs). A waiting reader of the log is woken once a
 * run that began after it asked has emptied the pending table.
 *
 * <p>Entries written before the tree existed are added to it first, in the same batches.
 */
@ApplicationScoped
class AuditSequencer {

    private static final Logger LOG = Logger.getLogger(AuditSequencer.class);
    static final int MAX_BATCH = 500;
    /**
     * Writers do not wake the sequencer, readers of the log do; this poll numbers what writers left in between, in
     * batches as large as a fifth of a second brings, and picks up what instances that died left pending.
     */
    private static final long POLL_MILLIS = 200;
    private static final long BACKOFF_MILLIS = 500;

    private static final Duration STOP_WAIT = Duration.ofSeconds(5);

    private final Object monitor = new Object();
    private volatile boolean stopping;
    /** Runs begun; a run is the batches that empty the pending table. */
    private long begun;
    /** The last run that emptied the pending table. */
    private long emptied;
    private boolean wakeRequested;
    private Thread thread;
    /** The log as this instance's last batch committed it; touched by the sequencer's thread only. */
    private Tip tip;

    /**
     * Waits until every entry committed before this call has its place in the log, or {@code timeout} passed;
     * false when it passed. The entries are durable either way; they are sequenced later.
     */
    boolean awaitSequenced(Duration timeout) {
        ensureRunning();
        Deadline deadline = Deadline.after(timeout);
        synchronized (monitor) {
            long needed = begun + 1;
            wakeRequested = true;
            monitor.notifyAll();
            return deadline.await(monitor, () -> emptied >= needed);
        }
    }

    /**
     * Runs from the start, not from the first write: entries left pending by an instance that died are sequenced
     * even if no request ever comes to this one.
     */
    void onStart(@Observes StartupEvent started) {
        ensureRunning();
    }

    private synchronized void ensureRunning() {
        if (!stopping && (thread == null || !thread.isAlive())) {
            thread = new Thread(this::run, "audit-sequencer");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * Lets a batch in progress commit before the container goes: interrupted mid-batch, it failed on beans already
     * destroyed and logged an error at every shutdown. On the shutdown event, not at {@code @PreDestroy}: Hibernate
     * closes before beans are destroyed, and a batch still running then failed with "Session/EntityManager is
     * closed". Interrupts only a batch that outlasts {@link #STOP_WAIT}.
     */
    void onStop(@Observes ShutdownEvent stopped) {
        stop();
    }

    private synchronized void stop() {
        if (thread == null) {
            return;
        }
        synchronized (monitor) {
            stopping = true;
            monitor.notifyAll();
        }
        try {
            thread.join(STOP_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
    }

    private void run() {
        while (!Thread.currentThread().isInterrupted()) {
            long run;
            synchronized (monitor) {
                if (stopping) {
                    return;
                }
                if (!wakeRequested) {
                    try {
                        monitor.wait(POLL_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
                if (stopping) {
                    return;
                }
                wakeRequested = false;
                run = ++begun;
            }
            if (sequenceAll()) {
                synchronized (monitor) {
                    emptied = run;
                    monitor.notifyAll();
                }
            } else if (!Backoff.pause(BACKOFF_MILLIS)) {
                return;
            }
        }
    }

    /**
     * Sequences batches until none is left, or until the instance stops (a backlog left by a burst of writes is
     * taken up by the next start, not by a shutdown that would outlast its wait); false when one failed (it is
     * retried on the next run).
     */
    private boolean sequenceAll() {
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            Batch done;
            do {
                Tip known = tip;
                done = QuarkusTransaction.requiringNew().call(() -> batch(known));
                tip = done.tip();
            } while (done.full() && !stopping);
            return true;
        } catch (RuntimeException e) {
            LOG.errorf(e, "audit entries could not be sequenced; they stay pending and are retried");
            return false;
        } finally {
            requestContext.terminate();
        }
    }

    /**
     * One batch under the chain lock. {@code known} is the log as this instance last committed it: while the chain
     * still ends where it left it, no other instance appended, and its tree's edge needs no reading.
     */
    private static Batch batch(Tip known) {
        ChainLock.acquire();
        ChainTip head = AuditEntryEntity.tip().orElse(new ChainTip(0, ChainHash.GENESIS));
        long seq = head.seq();
        TreeFrontier tree;
        if (known != null && known.head().equals(head)) {
            tree = known.tree().copy();
        } else {
            long leaves = AuditTreeNodes.leafCount();
            if (leaves < seq) {
                return new Batch(backfill(leaves, seq), null);
            }
            if (leaves > seq) {
                throw new IllegalStateException("the audit tree has " + leaves + " leaves but the log only " + seq
                        + " entries: entries were removed; POST /api/v1/audit/verify names the break");
            }
            tree = TreeFrontier.of(seq);
        }
        List<AuditPendingEntity> pending = AuditPendingEntity.take(MAX_BATCH);
        String previous = head.entryHash();
        List<AuditEntryEntity> rows = new ArrayList<>(pending.size());
        Map<Node, byte[]> nodes = new LinkedHashMap<>();
        for (AuditPendingEntity entry : pending) {
            AuditEntry unhashed = AuditEntry.unhashed(++seq, entry.at, AuditEvent.of(entry), previous);
            byte[] leaf = unhashed.canonicalJson();
            AuditEntryEntity row = unhashed.hashed(leaf).toRow();
            row.requestId = entry.requestId;
            rows.add(row);
            nodes.putAll(tree.append(MerkleHash.leaf(leaf)));
            previous = row.entryHash;
        }
        AuditEntryEntity.insert(rows);
        AuditTreeNodes.insert(nodes);
        return new Batch(pending.size() == MAX_BATCH, new Tip(new ChainTip(seq, previous), tree));
    }

    /** The log's last link and its tree's edge, as a batch committed them. */
    private record Tip(ChainTip head, TreeFrontier tree) {
    }

    /** What a batch left: whether it was full (another may follow), and the log as it committed it. */
    private record Batch(boolean full, Tip tip) {
    }

    /** Adds entries {@code leaves + 1 …} of the log to the tree, as many as one batch takes. */
    private static boolean backfill(long leaves, long seq) {
        TreeFrontier tree = TreeFrontier.of(leaves);
        Map<Node, byte[]> nodes = new LinkedHashMap<>();
        List<AuditEntry> entries = AuditLog.entries(leaves, seq, MAX_BATCH);
        for (AuditEntry entry : entries) {
            nodes.putAll(tree.append(MerkleHash.leaf(entry.canonicalJson())));
        }
        AuditTreeNodes.insert(nodes);
        LOG.infof("audit tree extended over %d entries written before it, %d of %d", entries.size(), tree.size(),
                seq);
        return true;
    }
}
