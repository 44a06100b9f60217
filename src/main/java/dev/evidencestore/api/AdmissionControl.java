package dev.evidencestore.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * Bounds the requests in progress. A burst beyond the bound is turned away at once with 503 service-busy and
 * Retry-After, before it takes a worker thread or a database connection, so the requests already admitted finish,
 * memory stays bounded, audit entries still find a connection, and health checks keep answering.
 */
@ApplicationScoped
public class AdmissionControl {

    static final int RETRY_AFTER_SECONDS = 1;
    /** Before authentication and routing: a refused request costs as little as possible. */
    private static final int PRIORITY = 1000;

    private final Semaphore permits;
    private final String busy;

    AdmissionControl(EvidenceConfig config, ObjectMapper json) throws JsonProcessingException {
        this.permits = new Semaphore(config.http().maxConcurrentRequests());
        this.busy = json.writeValueAsString(Problems.document(ProblemType.SERVICE_BUSY,
                "the service is handling as many requests as it can; nothing was done",
                Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS)));
    }

    void register(@Observes Filters filters) {
        filters.register(this::admit, PRIORITY);
    }

    private void admit(RoutingContext request) {
        if (request.normalizedPath().startsWith("/q/")) {
            request.next();
            return;
        }
        if (!permits.tryAcquire()) {
            request.response().setStatusCode(ProblemType.SERVICE_BUSY.status())
                    .putHeader("Content-Type", Problems.MEDIA_TYPE)
                    .putHeader("Retry-After", Integer.toString(RETRY_AFTER_SECONDS))
                    .end(busy);
            return;
        }
        // called once the response is done or the connection is gone, whichever comes first
        request.addEndHandler(ended -> permits.release());
        request.next();
    }
}
