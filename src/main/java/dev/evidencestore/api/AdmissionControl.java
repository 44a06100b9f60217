package dev.evidencestore.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

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

    private final int bound;
    private final Semaphore permits;
    private final String busy;

    AdmissionControl(EvidenceConfig config, ObjectMapper json) throws JsonProcessingException {
        this.bound = config.http().maxConcurrentRequests();
        this.permits = new Semaphore(bound);
        this.busy = json.writeValueAsString(Problems.document(ProblemType.SERVICE_BUSY,
                "the service is handling as many requests as it can; nothing was done",
                Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS)));
    }

    /**
     * Before matching, authentication and any worker thread, so a refused request costs as little as possible. Only
     * the service's own resources count: health, metrics and the OpenAPI document are not JAX-RS resources.
     */
    @ServerRequestFilter(preMatching = true, priority = 10)
    public Response admit(RoutingContext request) {
        if (!enter()) {
            return Response.status(ProblemType.SERVICE_BUSY.status()).type(Problems.MEDIA_TYPE)
                    .header("Retry-After", RETRY_AFTER_SECONDS).entity(busy).build();
        }
        // called once the response is done or the connection is gone, whichever comes first
        request.addEndHandler(ended -> leave());
        return null;
    }

    /** Takes a slot, if one is free. */
    boolean enter() {
        return permits.tryAcquire();
    }

    void leave() {
        permits.release();
    }

    /** Requests admitted and not yet finished. */
    int inProgress() {
        return bound - permits.availablePermits();
    }
}
