package dev.evidencestore.deployment;

import dev.evidencestore.support.S3ProxyServer;

import java.util.Map;

/** The blob store both instances share: S3-compatible object storage, as in a scaled-out deployment. */
final class SharedBlobStore implements AutoCloseable {

    private final S3ProxyServer server = S3ProxyServer.fresh("two-instances");

    Map<String, String> settings() {
        return server.serviceSettings();
    }

    @Override
    public void close() {
        server.close();
    }
}
