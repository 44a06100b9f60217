package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import io.quarkus.vertx.VertxOptionsCustomizer;
import io.vertx.core.Context;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.impl.HttpServerConnection;
import io.vertx.core.impl.VertxBuilder;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.core.spi.VertxTracerFactory;
import io.vertx.core.spi.tracing.SpanKind;
import io.vertx.core.spi.tracing.TagExtractor;
import io.vertx.core.spi.tracing.VertxTracer;
import io.vertx.core.tracing.TracingOptions;
import io.vertx.core.tracing.TracingPolicy;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Map;

/**
 * Sends requests that cannot be decoded to {@link HttpLayerRefusals} instead of the bare answers of Vert.x and
 * Quarkus: Vert.x gives a request its HTTP decoder refused (not HTTP; a target or headers over the limits) to the
 * server's invalid-request handler, which answers a bare 400, 414 or 431, and Quarkus's request handler answers a
 * bare 400 to a target that {@link URI} cannot parse. Quarkus 3.33 creates the server and offers no way to set
 * either handler (quarkusio/quarkus#55082). The one hook that sees every request before Vert.x hands it to a handler
 * is the tracer SPI, told as the request begins; this tracer traces nothing, and for such a request sets the handler
 * of its connection, which closes after the answer. HttpLayerRefusalTest fails if an upgrade changes that order.
 * Remove this once Quarkus lets applications set the invalid-request handler.
 *
 * <p>The same hook serves {@link TransferWatch}: the tracer factory, given the Vert.x builder, sets the
 * {@link WatchedTransport} that puts a watch on every accepted connection, and the tracer tells each watch when its
 * first request's head has been decoded. StalledTransferTest fails if that stops working.
 */
@ApplicationScoped
public class UndecodableRequests implements VertxOptionsCustomizer {

    private final TransferDeadlines deadlines;

    UndecodableRequests(EvidenceConfig config) {
        this.deadlines = TransferDeadlines.of(config.http());
    }

    @Override
    public void accept(VertxOptions options) {
        if (options.getTracingOptions() == null) {
            options.setTracingOptions(new TracingOptions().setFactory(new Factory(deadlines)));
        }
        // else a real tracer (OpenTelemetry) is configured: it stays, undecodable requests get bare answers, and
        // stalled connections last until Vert.x's idle timeout (quarkus.http.idle-timeout)
    }

    private record Factory(TransferDeadlines deadlines) implements VertxTracerFactory {
        @Override
        public void init(VertxBuilder builder) {
            VertxTracerFactory.super.init(builder);
            builder.findTransport(new WatchedTransport(builder.findTransport(), deadlines));
        }

        @Override
        public VertxTracer<?, ?> tracer(TracingOptions options) {
            return new DecoderWatch();
        }
    }

    /** Looks only at whether the request it is told about can be decoded, and tells the connection's watch of it. */
    private static final class DecoderWatch implements VertxTracer<Object, Object> {
        @Override
        public <R> Object receiveRequest(Context context, SpanKind kind, TracingPolicy policy, R request,
                                         String operation, Iterable<Map.Entry<String, String>> headers,
                                         TagExtractor<R> tagExtractor) {
            if (request instanceof HttpServerRequest http && http.connection() instanceof HttpServerConnection connection) {
                if (http.decoderResult().isFailure()) {
                    connection.invalidRequestHandler(HttpLayerRefusals::undecodable);
                } else if (!parsable(http.uri())) {
                    connection.handler(HttpLayerRefusals::unparsableTarget);
                }
                if (connection instanceof ConnectionBase base) {
                    TransferWatch.headDecoded(base.channel(), http);
                }
            }
            return null;
        }

        /** Quarkus's own test of a target (VertxHttpRecorder): what it refuses is answered here instead. */
        private static boolean parsable(String target) {
            if (target == null) {
                return false;
            }
            try {
                new URI(target);
                return true;
            } catch (URISyntaxException e) {
                return false;
            }
        }
    }
}
