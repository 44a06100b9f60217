package dev.evidencestore.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Requests sent at the same moment from several threads. */
final class Concurrent {

    private Concurrent() {
    }

    /** Runs each call on its own thread, released together, and returns their results in order. */
    @SafeVarargs
    static <T> List<T> run(Callable<T>... calls) throws Exception {
        CyclicBarrier start = new CyclicBarrier(calls.length);
        List<Callable<T>> released = new ArrayList<>();
        for (Callable<T> call : calls) {
            released.add(() -> {
                start.await();
                return call.call();
            });
        }
        return all(released, calls.length);
    }

    static <T> List<T> all(List<Callable<T>> calls, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> result : pool.invokeAll(calls)) {
                results.add(result.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
