package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
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
    /** Health, metrics and the OpenAPI document are answered whatever the load; they are not counted. */
    private static final String UNCOUNTED = "/q/";

    private final int bound;
    private final Semaphore permits;
    private final String busy;

    AdmissionControl(EvidenceConfig config) {
        this.bound = config.http().maxConcurrentRequests();
        this.permits = new Semaphore(bound);
        this.busy = Problems.json(ProblemType.SERVICE_BUSY,
                "the service is handling as many requests as it can; nothing was done",
                Map.of("retryAfterSeconds", RETRY_AFTER_SECONDS));
    }

    void onRouter(@Observes Router router) {
        // first, ahead of authentication: a refusal that first verified a token and set up a JAX-RS request took the
        // event loops several times as long under a burst, keeping health checks waiting behind it
        router.route().order(RequestPipeline.ADMISSION).handler(this::admit);
    }

    /** On the event loop, before authentication, matching and any worker thread: a refusal costs little. */
    void admit(RoutingContext request) {
        if (request.normalizedPath().startsWith(UNCOUNTED)) {
            request.next();
            return;
        }
        if (!enter()) {
            request.response().setStatusCode(ProblemType.SERVICE_BUSY.status())
                    .putHeader(HttpHeaders.CONTENT_TYPE, Problems.MEDIA_TYPE)
                    .putHeader(HttpHeaders.RETRY_AFTER, String.valueOf(RETRY_AFTER_SECONDS))
                    .end(busy);
            return;
        }
        // called once the response is done or the connection is gone, whichever comes first
        request.addEndHandler(ended -> leave());
        request.next();
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
