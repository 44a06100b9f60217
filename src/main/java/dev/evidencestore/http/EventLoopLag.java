package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.ScheduledFuture;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Whether the event loop a request arrived on is behind: each loop marks the time every {@link #TICK_MILLIS} ms,
 * and a loop that has not marked it for longer than {@code evidence.http.admission.max-event-loop-lag} was kept
 * from its work, by work of its own or by threads that took the cores. Admission asks on the loop itself, while it
 * works through what piled up, so a late loop refuses new work at once instead of taking it on; the slots alone let
 * a burst in as fast as the admitted requests finish, and on two cores the worker threads it fed kept the loops, and
 * the health checks they answer, waiting two seconds.
 */
@ApplicationScoped
class EventLoopLag {

    private static final long TICK_MILLIS = 10;

    /** The last mark of the loop whose thread reads it; unset on a thread that is not an event loop. */
    private static final FastThreadLocal<long[]> LAST_TICK = new FastThreadLocal<>() {
        @Override
        protected long[] initialValue() {
            return new long[1];
        }
    };

    private final long limitNanos;
    private final List<ScheduledFuture<?>> ticks = new ArrayList<>();

    EventLoopLag(EvidenceConfig config) {
        this.limitNanos = config.http().admission().maxEventLoopLag().toNanos();
    }

    void start(@Observes StartupEvent started, Vertx vertx) {
        if (limitNanos <= 0) {
            return;
        }
        for (EventExecutor loop : vertx.nettyEventLoopGroup()) {
            ticks.add(loop.scheduleAtFixedRate(EventLoopLag::tick, 0, TICK_MILLIS, TimeUnit.MILLISECONDS));
        }
    }

    void stop(@Observes ShutdownEvent stopped) {
        ticks.forEach(tick -> tick.cancel(false));
        ticks.clear();
    }

    private static void tick() {
        LAST_TICK.get()[0] = System.nanoTime();
    }

    /** Whether the calling event loop has not marked the time for longer than the limit; false off the loops. */
    boolean behind() {
        if (limitNanos <= 0) {
            return false;
        }
        long[] last = LAST_TICK.getIfExists();
        return last != null && System.nanoTime() - last[0] > limitNanos;
    }
}
