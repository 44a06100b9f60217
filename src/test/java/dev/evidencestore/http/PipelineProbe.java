package dev.evidencestore.http;

import dev.evidencestore.support.Sql;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Probes placed between the stages of {@link RequestPipeline}, for requests that carry {@link #HEADER} only. Each
 * records what the stages before it have done to the request: admission control's slot, the idempotency claim's
 * held key, the audit entry. So PipelineOrderTest sees the real stages run, and in which order.
 */
@ApplicationScoped
public class PipelineProbe {

    static final String HEADER = "X-Pipeline-Probe";
    private static final String HELD = IdempotencyFilter.class.getName() + ".held";
    private static final Map<String, List<String>> SEEN = new ConcurrentHashMap<>();
    /** Every counted request not yet ended, by its routing context: what a test that needs quiet names if not. */
    private static final Map<RoutingContext, String> IN_FLIGHT = new ConcurrentHashMap<>();

    private final AdmissionControl admission;
    private final AuthFailureRouting authFailures;

    PipelineProbe(AdmissionControl admission, AuthFailureRouting authFailures) {
        this.admission = admission;
        this.authFailures = authFailures;
    }

    static List<String> seen(String probe) {
        return SEEN.getOrDefault(probe, List.of());
    }

    /** The requests admission counts that have not ended, each as method, path and when it arrived. */
    static List<String> inFlight() {
        return List.copyOf(IN_FLIGHT.values());
    }

    void onRouter(@Observes Router router) {
        router.route().order(RequestPipeline.ADMISSION - 2).handler(this::track);
        router.route().order(RequestPipeline.ADMISSION - 1).handler(request -> around(request, "before admission"));
        router.route().order(RequestPipeline.ADMISSION + 1).handler(request -> around(request, "after admission"));
        router.route().order(RequestPipeline.SHORT_BODIES - 1).handler(this::afterAuthentication);
        router.route().order(RequestPipeline.SHORT_BODIES + 1).handler(this::afterShortBodies);
    }

    /** Whether ShortBodies read the body whole before JAX-RS, which then reads it from memory. */
    private void afterShortBodies(RoutingContext request) {
        String probe = request.request().getHeader(HEADER);
        if (probe != null) {
            record(probe, "after short bodies: body read ahead " + (request.getBody() != null));
        }
        request.next();
    }

    private void track(RoutingContext request) {
        String method = request.request().method().name();
        if (RequestKind.of(method, request.normalizedPath()) != RequestKind.UNCOUNTED) {
            IN_FLIGHT.put(request, method + " " + request.request().uri() + " since " + Instant.now());
            // as admission gives its slots back, so that what is listed is what admission still counts
            RequestEnd.giveBack(request, () -> IN_FLIGHT.remove(request));
        }
        request.next();
    }

    private void around(RoutingContext request, String stage) {
        String probe = request.request().getHeader(HEADER);
        if (probe != null) {
            record(probe, stage + ": requests in progress " + admission.inProgress());
        }
        request.next();
    }

    /** Whether AuthFailureRouting took the place of Quarkus's failure handler before Quarkus REST's filter saw it. */
    private void afterAuthentication(RoutingContext request) {
        String probe = request.request().getHeader(HEADER);
        if (probe != null) {
            record(probe, "after authentication: auth failures routed by AuthFailureRouting "
                    + authFailures.routes(request));
        }
        request.next();
    }

    @ServerRequestFilter(priority = RequestPipeline.WORKSPACE_GATE - 1)
    public void beforeGate(ContainerRequestContext request) {
        request(request, "before workspace gate");
    }

    @ServerRequestFilter(priority = RequestPipeline.WORKSPACE_GATE + 1)
    public void afterGate(ContainerRequestContext request) {
        request(request, "after workspace gate");
    }

    @ServerRequestFilter(priority = RequestPipeline.IDEMPOTENCY_CLAIM + 1)
    public void afterClaim(ContainerRequestContext request) {
        request(request, "after idempotency claim");
    }

    @ServerResponseFilter(priority = RequestPipeline.AUDIT + 1)
    public Uni<Void> beforeAudit(ContainerRequestContext request, ContainerResponseContext response) {
        return response(request, response, "before audit");
    }

    @ServerResponseFilter(priority = RequestPipeline.AUDIT - 1)
    public Uni<Void> afterAudit(ContainerRequestContext request, ContainerResponseContext response) {
        return response(request, response, "after audit");
    }

    @ServerResponseFilter(priority = RequestPipeline.IDEMPOTENCY_SETTLE - 1)
    public Uni<Void> afterSettle(ContainerRequestContext request, ContainerResponseContext response) {
        return response(request, response, "after idempotency settle");
    }

    private static void request(ContainerRequestContext request, String stage) {
        String probe = request.getHeaderString(HEADER);
        if (probe != null) {
            record(probe, stage + ": key held " + (request.getProperty(HELD) != null));
        }
    }

    /** Counting audit entries takes JDBC, so it runs on a worker; the filter chain waits for it. */
    private static Uni<Void> response(ContainerRequestContext request, ContainerResponseContext response,
                                      String stage) {
        String probe = request.getHeaderString(HEADER);
        if (probe == null) {
            return Uni.createFrom().voidItem();
        }
        boolean held = request.getProperty(HELD) != null;
        return Uni.createFrom().<Void>item(() -> {
            record(probe, stage + ": status " + response.getStatus() + ", key held " + held + ", audit entries "
                    + auditEntries(request.getUriInfo().getRequestUri().getPath()));
            return null;
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static long auditEntries(String path) {
        try {
            return Sql.count(Sql.recordedAuditEntries("path = ?"), path);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void record(String probe, String observation) {
        SEEN.computeIfAbsent(probe, key -> new CopyOnWriteArrayList<>()).add(observation);
    }
}
