package dev.evidencestore.http;

import io.quarkus.runtime.BlockingOperationControl;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

import java.util.function.Supplier;

/** Blocking work (JDBC, reading a body) for a filter, which may be called on the event loop. */
final class WorkerThread {

    private WorkerThread() {
    }

    /** Runs {@code work} here when this thread may block, else on a worker; the request waits for it either way. */
    static <T> Uni<T> call(Supplier<T> work) {
        Uni<T> result = Uni.createFrom().item(work);
        return BlockingOperationControl.isBlockingAllowed() ? result
                : result.runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }
}
