package dev.evidencestore.http;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Plain HTTP stays HTTP/1.1: a client's {@code Upgrade: h2c} is ignored, and HTTP/2 is left to TLS (ALPN). Vert.x's
 * upgrade takes every handler but its own off the connection's pipeline, {@link TransferWatch} with them, so an
 * upgraded connection escaped the stalled-transfer deadlines and the bound on a download's bytes in flight, and the
 * JDK's HTTP client upgrades by default.
 */
@ApplicationScoped
public class NoClearTextHttp2 implements HttpServerOptionsCustomizer {

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        options.setHttp2ClearTextEnabled(false);
    }
}
