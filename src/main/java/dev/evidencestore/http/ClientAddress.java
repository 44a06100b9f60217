package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * The address a request came from, the one place admission control, the limit on unauthenticated writes and their
 * aggregate audit entries take it from: the direct peer, or, when the peer is one of
 * {@code evidence.http.trusted-proxies}, the address those proxies forward ({@link TrustedProxies}).
 */
@ApplicationScoped
public class ClientAddress {

    static final String UNKNOWN = "unknown";

    private final TrustedProxies proxies;

    ClientAddress(EvidenceConfig config) {
        this.proxies = TrustedProxies.of(config.http().trustedProxies().orElse(List.of()));
    }

    /** The client's address; {@value #UNKNOWN} when the connection has none. */
    String of(HttpServerRequest request) {
        SocketAddress peer = request.remoteAddress();
        String address = peer == null ? null : peer.hostAddress() != null ? peer.hostAddress() : peer.host();
        return proxies.client(address == null ? UNKNOWN : address, request.headers().getAll("Forwarded"),
                request.headers().getAll("X-Forwarded-For"));
    }
}
