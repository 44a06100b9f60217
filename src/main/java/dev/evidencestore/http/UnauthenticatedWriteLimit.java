package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.audit.RateWindow;
import dev.evidencestore.domain.Clock;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Counts write attempts without a valid bearer token per client address in fixed windows
 * ({@code evidence.audit.unauthenticated-writes.*}). Memory is bounded: at most {@code max-clients} addresses are
 * counted per window, and a new address beyond them is treated as beyond its rate.
 */
@ApplicationScoped
public class UnauthenticatedWriteLimit {

    private final int rate;
    private final int maxClients;
    private final RateWindow window;
    private long windowIndex;
    private final Map<String, Integer> attempts = new HashMap<>();

    UnauthenticatedWriteLimit(EvidenceConfig config) {
        this.rate = config.audit().unauthenticatedWrites().rate();
        this.maxClients = config.audit().unauthenticatedWrites().maxClients();
        this.window = new RateWindow(config.audit().unauthenticatedWrites().window());
    }

    /**
     * Counts one attempt of {@code client}: 0 when it is within the rate, else the seconds until the window ends,
     * for Retry-After.
     */
    synchronized long attempt(String client) {
        Instant now = Clock.now();
        long index = window.index(now);
        if (index != windowIndex) {
            attempts.clear();
            windowIndex = index;
        }
        String key = client == null ? "" : client;
        if (!attempts.containsKey(key) && attempts.size() >= maxClients) {
            return window.secondsLeft(now);
        }
        // stops counting past the rate, so a long flood cannot overflow it
        int count = attempts.merge(key, 1, (counted, one) -> counted > rate ? counted : counted + one);
        return count <= rate ? 0 : window.secondsLeft(now);
    }

    int rate() {
        return rate;
    }
}
