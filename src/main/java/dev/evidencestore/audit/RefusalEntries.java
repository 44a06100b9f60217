package dev.evidencestore.audit;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.Clock;
import dev.evidencestore.persistence.AuditPendingEntity;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The entries of refused requests, which changed nothing: queued in memory and written to {@code audit_pending} in
 * batches by one thread, a transaction per batch. A refusal so never needs a database connection of its own, and
 * when the pool has none to give, its entry waits in the queue rather than being dropped. The queue is bounded
 * ({@code evidence.audit.refusal-queue}); beyond it a refusal is counted in its client's aggregate
 * ({@link RefusalTallies}), as unauthenticated writes beyond their rate are, and the aggregates of a window are
 * written when it ends, and at shutdown. Writes are not queued here: a write's entry commits in the write's own
 * transaction ({@link AuditLog#record}).
 */
@ApplicationScoped
public class RefusalEntries {

    private static final Logger LOG = Logger.getLogger(RefusalEntries.class);
    private static final int MAX_BATCH = 500;
    private static final long BACKOFF_MILLIS = 500;
    private static final Duration SHUTDOWN_WAIT = Duration.ofSeconds(5);

    private final int capacity;
    private final RateWindow window;
    private final Counter folded;
    private final Counter lost;

    /** Guards everything below. */
    private final Object monitor = new Object();
    private final Deque<Queued> queue = new ArrayDeque<>();
    private final RefusalTallies tallies;
    /** Aggregates of windows that ended, written before the queue; empty before a window may close into it. */
    private final List<Timed> closed = new ArrayList<>();
    private long windowIndex;
    private long enqueued;
    private long written;
    private boolean stopping;
    private Thread thread;

    RefusalEntries(EvidenceConfig config, MeterRegistry registry) {
        this.capacity = config.audit().refusalQueue();
        this.window = new RateWindow(config.audit().unauthenticatedWrites().window());
        this.tallies = new RefusalTallies(config.audit().unauthenticatedWrites().maxClients());
        this.windowIndex = window.index(Clock.now());
        this.folded = Counter.builder("evidence.audit.refusals.folded")
                .description("Refusals counted in an aggregate entry because the queue of refusals was full")
                .register(registry);
        this.lost = Counter.builder("evidence.audit.entries.lost")
                .description("Audit entries of refusals the database refused to hold (logged AUDIT ENTRY LOST)")
                .register(registry);
        Gauge.builder("evidence.audit.refusals.queued", this, RefusalEntries::queued)
                .description("Entries of refusals waiting to be written").register(registry);
    }

    /**
     * Queues {@code event}, a refusal of {@code client}'s request for {@code operation}; the stage completes once
     * its entry is written. With the queue full, the refusal is counted in the client's aggregate at once instead.
     */
    public CompletionStage<Void> record(AuditEvent event, String client, String operation) {
        ensureRunning();
        synchronized (monitor) {
            if (queue.size() < capacity && !stopping) {
                Queued queued = new Queued(new Timed(event, Clock.now()), new CompletableFuture<>(), ++enqueued);
                queue.addLast(queued);
                monitor.notifyAll();
                return queued.written();
            }
            tallies.count(client, event.actor(), event.status(), event.problem(), operation, Clock.now());
        }
        folded.increment();
        return CompletableFuture.completedFuture(null);
    }

    /** Counts a refusal of {@code client}'s request in its aggregate, written when the window ends. */
    public void aggregate(String client, String actor, int status, String problem, String operation) {
        ensureRunning();
        synchronized (monitor) {
            tallies.count(client, actor, status, problem, operation, Clock.now());
        }
    }

    /**
     * Waits until every refusal queued before this call is written to the pending table, or {@code timeout}
     * passed; false when it passed. Aggregates are written when their window ends, and are not waited for.
     */
    boolean awaitWritten(Duration timeout) {
        Deadline deadline = Deadline.after(timeout);
        synchronized (monitor) {
            long needed = enqueued;
            return deadline.await(monitor, () -> written >= needed);
        }
    }

    void onStart(@Observes StartupEvent started) {
        ensureRunning();
    }

    /**
     * At shutdown the window is cut short: its aggregates are written with what is queued, for as long as
     * {@link #SHUTDOWN_WAIT}, before the datasource closes.
     */
    void onStop(@Observes ShutdownEvent stopped) {
        long deadline = System.nanoTime() + SHUTDOWN_WAIT.toNanos();
        synchronized (monitor) {
            stopping = true;
            closed.addAll(timed(tallies.drain()));
            monitor.notifyAll();
            while (!(queue.isEmpty() && closed.isEmpty()) && System.nanoTime() < deadline && running()) {
                try {
                    monitor.wait(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (!(queue.isEmpty() && closed.isEmpty())) {
                LOG.errorf("AUDIT ENTRY LOST: %d entries of refusals could not be written before shutdown",
                        queue.size() + closed.size());
            }
        }
        Thread running = thread;
        if (running != null) {
            running.interrupt();
        }
    }

    private boolean running() {
        return thread != null && thread.isAlive();
    }

    private double queued() {
        synchronized (monitor) {
            return queue.size() + closed.size();
        }
    }

    private synchronized void ensureRunning() {
        if (!running()) {
            thread = new Thread(this::run, "audit-refusals");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void run() {
        boolean failing = false;
        while (!Thread.currentThread().isInterrupted()) {
            Batch batch;
            try {
                batch = next();
            } catch (InterruptedException e) {
                return;
            }
            try {
                write(batch.events());
                done(batch, batch.events().size());
                if (failing) {
                    LOG.infof("entries of refusals are written again");
                }
                failing = false;
            } catch (RuntimeException e) {
                if (isRefusedData(e)) {
                    writeOneByOne(batch);
                    continue;
                }
                if (!failing) {
                    LOG.warnf(e, "entries of refusals could not be written; %d stay queued and are retried",
                            batch.events().size());
                }
                failing = true;
                if (!Backoff.pause(BACKOFF_MILLIS)) {
                    return;
                }
            }
        }
    }

    /** Waits for something to write: aggregates of a window that ended first, then queued refusals. */
    private Batch next() throws InterruptedException {
        synchronized (monitor) {
            while (true) {
                Instant now = Clock.now();
                long index = window.index(now);
                if (index != windowIndex && closed.isEmpty()) {
                    // while earlier aggregates are still unwritten, the tallies carry on into the next window
                    closed.addAll(timed(tallies.drain()));
                    windowIndex = index;
                }
                List<Timed> events = new ArrayList<>(closed.subList(0, Math.min(closed.size(), MAX_BATCH)));
                int fromClosed = events.size();
                List<Queued> taken = new ArrayList<>();
                for (Queued queued : queue) {
                    if (events.size() == MAX_BATCH) {
                        break;
                    }
                    events.add(queued.timed());
                    taken.add(queued);
                }
                if (!events.isEmpty()) {
                    return new Batch(events, fromClosed, taken);
                }
                long untilEnd = window.end(windowIndex).toEpochMilli() - now.toEpochMilli();
                monitor.wait(Math.max(1, untilEnd));
            }
        }
    }

    private static List<Timed> timed(List<AuditEvent> aggregates) {
        Instant now = Clock.now();
        return aggregates.stream().map(event -> new Timed(event, now)).toList();
    }

    private static void write(List<Timed> events) {
        ManagedContext requestContext = Arc.container().requestContext();
        requestContext.activate();
        try {
            List<AuditPendingEntity> rows = events.stream().map(timed -> timed.event().toPending(timed.at())).toList();
            QuarkusTransaction.requiringNew().run(() -> AuditPendingEntity.insert(rows));
        } finally {
            requestContext.terminate();
        }
    }

    /** Removes the first {@code count} events of a batch, written, and completes their refusals' stages. */
    private void done(Batch batch, int count) {
        synchronized (monitor) {
            int fromClosed = Math.min(count, batch.fromClosed());
            closed.subList(0, fromClosed).clear();
            for (Queued queued : batch.queued().subList(0, count - fromClosed)) {
                queue.removeFirst();
                written = queued.ticket();
                queued.written().complete(null);
            }
            monitor.notifyAll();
        }
    }

    /**
     * A batch the database refused for what one of its rows holds: each row is tried on its own, and only the row
     * the database refuses is lost, logged and counted; nothing that can be written waits behind it for ever.
     */
    private void writeOneByOne(Batch batch) {
        int handled = 0;
        for (Timed timed : batch.events()) {
            try {
                write(List.of(timed));
            } catch (RuntimeException e) {
                if (!isRefusedData(e)) {
                    // the database went away meanwhile: what is left is retried as a batch
                    break;
                }
                lost.increment();
                LOG.errorf(e, "AUDIT ENTRY LOST: the database refused the entry %s", timed.event());
            }
            handled++;
        }
        done(batch, handled);
    }

    /** Whether the database refused the rows themselves (SQLSTATE class 22 or 23), which no retry changes. */
    private static boolean isRefusedData(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("22") || sql.getSQLState().startsWith("23"))) {
                return true;
            }
        }
        return false;
    }

    /** An event and the time its entry records: when the refusal was answered, or when its window closed. */
    private record Timed(AuditEvent event, Instant at) {
    }

    /** A refusal waiting to be written, with the stage its answer waits on and its place in the queue. */
    private record Queued(Timed timed, CompletableFuture<Void> written, long ticket) {
    }

    /** What one transaction writes: aggregates first, then queued refusals. */
    private record Batch(List<Timed> events, int fromClosed, List<Queued> queued) {
    }
}
