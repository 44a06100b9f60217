package dev.evidencestore.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;

/** The address a request came from, as the limit on unauthenticated writes and their aggregate entries see it. */
final class ClientAddress {

    private ClientAddress() {
    }

    /**
     * The direct peer's address, or null when the connection has none. This is the one place the audit takes a
     * client's address from: behind trusted proxies it should take the address they forward, as admission control
     * does, and nothing else changes.
     */
    static String of(HttpServerRequest request) {
        SocketAddress peer = request.remoteAddress();
        return peer == null ? null : peer.hostAddress();
    }
}
