package dev.evidencestore.http;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * At most {@code limit} requests at once for each key (a client address, a principal). Only keys with requests in
 * progress are kept, so the map is never larger than the number of requests admitted.
 */
final class ConcurrencyCap {

    private final int limit;
    private final ConcurrentMap<String, Integer> inProgress = new ConcurrentHashMap<>();

    ConcurrencyCap(int limit) {
        this.limit = limit;
    }

    int limit() {
        return limit;
    }

    /** Counts a request of {@code key}, unless it has {@code limit} in progress already. */
    boolean enter(String key) {
        boolean[] entered = {false};
        inProgress.compute(key, (k, count) -> {
            int now = count == null ? 0 : count;
            if (now >= limit) {
                return count;
            }
            entered[0] = true;
            return now + 1;
        });
        return entered[0];
    }

    void leave(String key) {
        inProgress.computeIfPresent(key, (k, count) -> count <= 1 ? null : count - 1);
    }

    int inProgress(String key) {
        return inProgress.getOrDefault(key, 0);
    }
}
