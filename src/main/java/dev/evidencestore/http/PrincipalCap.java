package dev.evidencestore.http;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.domain.ProblemType;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.security.Actor;
import dev.evidencestore.security.CurrentActor;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.quarkus.vertx.http.runtime.CurrentVertxRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * At most {@code evidence.http.admission.per-principal} requests at once of one principal, so that one token, from
 * however many addresses, cannot take every slot and database connection. It needs the principal, so it runs after
 * authentication, unlike {@link AdmissionControl}; anonymous requests are bounded there, by their address. The slot
 * is given back when the response has ended, or its connection closed, as admission's are.
 */
@ApplicationScoped
public class PrincipalCap {

    private final ConcurrencyCap cap;
    private final CurrentIdentityAssociation identities;
    private final CurrentVertxRequest vertxRequest;
    private final Refusal busy;

    PrincipalCap(EvidenceConfig config, CurrentIdentityAssociation identities, CurrentVertxRequest vertxRequest) {
        int limit = config.http().admission().perPrincipal();
        this.cap = new ConcurrencyCap(limit);
        this.identities = identities;
        this.vertxRequest = vertxRequest;
        this.busy = new Refusal(ProblemType.SERVICE_BUSY, "this principal has " + limit
                + " requests in progress already; nothing was done")
                .with("retryAfterSeconds", AdmissionControl.RETRY_AFTER_SECONDS);
    }

    /** After the workspace gate, which resolved the identity: only requests it lets through are counted. */
    @ServerRequestFilter(priority = RequestPipeline.PRINCIPAL_CAP)
    public Uni<Response> admit() {
        RoutingContext context = vertxRequest.getCurrent();
        return identities.getDeferredIdentity().map(identity -> admit(CurrentActor.of(identity), context));
    }

    private Response admit(Actor actor, RoutingContext context) {
        return context == null || enters(actor, context) ? null : Problems.response(busy);
    }

    /**
     * Counts the request as one of its principal's until its response ends; false when the principal has as many
     * in progress already. Anonymous requests are not counted here.
     */
    public boolean enters(Actor actor, RoutingContext context) {
        if (actor.anonymous()) {
            return true;
        }
        String principal = actor.principal() == null ? actor.name() : actor.principal().toString();
        if (!cap.enter(principal)) {
            return false;
        }
        RequestEnd.giveBack(context, () -> cap.leave(principal));
        return true;
    }

    /** Counts a request of {@code principal} as this filter does, for tests that hold a principal's slots. */
    boolean enter(String principal) {
        return cap.enter(principal);
    }

    void leave(String principal) {
        cap.leave(principal);
    }

    /** Requests of this principal (its {@code iss} and {@code sub}, as a record keeps them) now in progress. */
    int inProgress(String principal) {
        return cap.inProgress(principal);
    }
}
