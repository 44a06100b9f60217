package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.lang.annotation.Annotation;
import java.util.Map;

/**
 * Answers 429 too-many-requests, with Retry-After, a write without a valid bearer token beyond its client address's
 * rate, so that a flood of them cannot grow the write-once audit log: the audit filter counts such refusals in one
 * aggregate entry per address and window ({@code dev.evidencestore.audit.RefusalEntries}). Writes within the rate go
 * on to be refused (401) and recorded one by one, as before.
 *
 * <p>It runs before routing (a pre-matching filter), so before the role checks, which answer a request without a
 * valid token 401 ahead of every other filter: beyond the rate a write without an Authorization header costs a
 * counter, no routing, no body read, whatever its path. A write with a token is counted only once the token failed
 * verification, which the role checks do anyway: the audit filter then calls {@link #limitRefused}, which answers
 * it 429 beyond the rate. A write with a valid token is never counted.
 */
@ApplicationScoped
public class UnauthenticatedWrites {

    /** Request property: the request was beyond the rate and answered 429 here. */
    static final String LIMITED = UnauthenticatedWrites.class.getName() + ".limited";

    private static final MediaType PROBLEM = MediaType.valueOf(Problems.MEDIA_TYPE);

    private final UnauthenticatedWriteLimit limit;
    private final ClientAddress clients;

    UnauthenticatedWrites(UnauthenticatedWriteLimit limit, ClientAddress clients) {
        this.limit = limit;
        this.clients = clients;
    }

    @ServerRequestFilter(preMatching = true, priority = RequestPipeline.UNAUTHENTICATED_WRITES)
    public Response limit(ContainerRequestContext request, HttpServerRequest http) {
        if (isRead(request.getMethod()) || request.getHeaderString(HttpHeaders.AUTHORIZATION) != null) {
            // a token is judged once it was verified (AuditFilter): a valid one is never counted
            return null;
        }
        long retryAfter = limit.attempt(clients.of(http));
        if (retryAfter == 0) {
            return null;
        }
        request.setProperty(LIMITED, Boolean.TRUE);
        return Problems.response(new Refusal(ProblemType.TOO_MANY_REQUESTS, detail()).with("retryAfterSeconds",
                retryAfter));
    }

    /**
     * Counts a refused write whose token failed verification, and when it is beyond the rate turns its answer into
     * the same 429 a write without a token gets; true when it did.
     */
    boolean limitRefused(ContainerResponseContext response, String client) {
        long retryAfter = limit.attempt(client);
        if (retryAfter == 0) {
            return false;
        }
        response.setStatus(ProblemType.TOO_MANY_REQUESTS.status());
        response.getHeaders().remove(HttpHeaders.WWW_AUTHENTICATE);
        response.getHeaders().putSingle(HttpHeaders.RETRY_AFTER, retryAfter);
        response.setEntity(Problems.document(ProblemType.TOO_MANY_REQUESTS, detail(),
                Map.of("retryAfterSeconds", retryAfter)), new Annotation[0], PROBLEM);
        return true;
    }

    private String detail() {
        return "more than " + limit.rate() + " writes without a valid bearer token came from this address in this "
                + "window; this one has none either; retry after the window ends, with a token";
    }

    private static boolean isRead(String method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }
}
