package dev.evidencestore;

import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * How the service's in-memory caches are built. Their upkeep (eviction, expiry) runs on the thread that used the
 * cache: Caffeine's default hands it to the JVM's common pool after writes, and waking that pool's thread cost a
 * small upload as many samples as waking a worker thread for the request itself (docs/operations.md).
 */
public final class Caches {

    private Caches() {
    }

    /** A Caffeine builder to bound and build; its upkeep stays on the caller's thread. */
    public static Caffeine<Object, Object> builder() {
        return Caffeine.newBuilder().executor(Runnable::run);
    }
}
