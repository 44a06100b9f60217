package dev.evidencestore.http;

import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Answers 429 too-many-requests, with Retry-After, a write without a valid bearer token beyond its client address's
 * rate, so that a flood of them cannot grow the write-once audit log: the audit filter counts such refusals in one
 * aggregate entry per address and window ({@code dev.evidencestore.audit.RefusalEntries}). Writes within the rate go
 * on to be refused (401) and recorded one by one, as before.
 *
 * <p>Unauthenticated means no Authorization header, decided without looking further, or a token that fails
 * verification: its identity is resolved here, which the workspace gate would do next anyway (the identity is
 * resolved once per request), so a request with a token costs no second verification; a request without one costs
 * a counter. Authenticated writes are never counted.
 */
public class UnauthenticatedWrites {

    /** Request property: the request was counted against its address's rate. */
    static final String COUNTED = UnauthenticatedWrites.class.getName() + ".counted";
    /** Request property: the request was beyond the rate and answered 429 here. */
    static final String LIMITED = UnauthenticatedWrites.class.getName() + ".limited";

    private final CurrentIdentityAssociation identities;
    private final UnauthenticatedWriteLimit limit;

    UnauthenticatedWrites(CurrentIdentityAssociation identities, UnauthenticatedWriteLimit limit) {
        this.identities = identities;
        this.limit = limit;
    }

    @ServerRequestFilter(priority = RequestPipeline.UNAUTHENTICATED_WRITES)
    public Uni<Response> limit(ContainerRequestContext request, HttpServerRequest http) {
        if (isRead(request.getMethod())) {
            return Uni.createFrom().nullItem();
        }
        if (request.getHeaderString(HttpHeaders.AUTHORIZATION) == null) {
            return Uni.createFrom().item(() -> count(request, http));
        }
        return identities.getDeferredIdentity().onItemOrFailure().transform((identity, failure) ->
                failure != null || identity.isAnonymous() ? count(request, http) : null);
    }

    private Response count(ContainerRequestContext request, HttpServerRequest http) {
        request.setProperty(COUNTED, Boolean.TRUE);
        long retryAfter = limit.attempt(ClientAddress.of(http));
        if (retryAfter == 0) {
            return null;
        }
        request.setProperty(LIMITED, Boolean.TRUE);
        return Problems.response(new Refusal(ProblemType.TOO_MANY_REQUESTS, "more than " + limit.rate()
                + " writes without a valid bearer token came from this address in this window; this one has none "
                + "either; retry after the window ends, with a token").with("retryAfterSeconds", retryAfter));
    }

    private static boolean isRead(String method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }
}
