package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;

/**
 * The kernel's send buffer of each connection, when configured (evidence.http.send-buffer-size). A stalled download
 * is seen as bytes the socket stops taking; the kernel lets the service write again only once about a third of the
 * buffer has drained, so the larger the buffer, the faster a client must read not to look stalled.
 */
@ApplicationScoped
public class SendBuffer implements HttpServerOptionsCustomizer {

    private final Optional<MemorySize> size;

    SendBuffer(EvidenceConfig config) {
        this.size = config.http().sendBufferSize();
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        size.ifPresent(bytes -> options.setSendBufferSize((int) Math.min(Integer.MAX_VALUE, bytes.asLongValue())));
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        customizeHttpServer(options);
    }
}
