package dev.evidencestore.http;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Path;

import java.util.List;
import java.util.Set;

/**
 * The HTTP server metrics name a request by its route template, never by its raw path. Quarkus tags a request
 * JAX-RS matched with its template, but one refused before (503 by admission, 400 by the router, a connection
 * reset) with the path as sent, IDs, digests and junk included: anyone could grow the metrics without bound and read
 * the IDs back from {@code /q/metrics}, which Prometheus scrapes without a token. Such a path is named here by the
 * template it would have reached, or {@code NOT_FOUND} (404) or {@code UNKNOWN}; a method that is not a standard
 * one becomes {@code UNKNOWN} too, as a client may send any token as a method.
 */
@Singleton
public class RouteTemplateTags implements MeterFilter {

    /** The tag values Quarkus itself uses for requests without a template. */
    static final Set<String> FIXED = Set.of("root", "NOT_FOUND", "REDIRECTION", "UNKNOWN");
    static final String UNKNOWN = "UNKNOWN";
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
            "TRACE", "CONNECT");

    private final RouteTemplates routes;

    RouteTemplateTags(BeanManager beans) {
        this.routes = RouteTemplates.of(beans.getBeans(Object.class, Any.Literal.INSTANCE).stream()
                .<Class<?>>map(Bean::getBeanClass)
                .filter(type -> type.isAnnotationPresent(Path.class))
                .toList());
    }

    /** The templates known, for the tests that hold them against the contract. */
    List<String> templates() {
        return routes.templates();
    }

    @Override
    public Meter.Id map(Meter.Id id) {
        if (!id.getName().startsWith("http.server")) {
            return id;
        }
        Meter.Id mapped = id;
        String uri = id.getTag("uri");
        if (uri != null && !FIXED.contains(uri) && !routes.isTemplate(uri)) {
            mapped = mapped.withTag(Tag.of("uri", routes.match(uri).orElse(
                    "404".equals(id.getTag("status")) ? "NOT_FOUND" : UNKNOWN)));
        }
        String method = id.getTag("method");
        if (method != null && !METHODS.contains(method)) {
            mapped = mapped.withTag(Tag.of("method", UNKNOWN));
        }
        return mapped;
    }
}
