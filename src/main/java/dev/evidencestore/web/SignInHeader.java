package dev.evidencestore.web;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.security.CurrentActor;
import dev.evidencestore.security.SignedInSessions;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Named;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * What the header of every page says about signing in ({@code inject:signIn} in layout.html): nothing while sign-in
 * is off; else a "Sign in" link for a caller without an identity, and a signed-in caller's name with "Sign out".
 * It reads the identity the request already resolved (the workspace gate resolves it for every page) and never
 * resolves one itself, so an error page about a token that failed renders all the same.
 */
@RequestScoped
@Named("signIn")
public class SignInHeader {

    private final boolean enabled;
    private final RoutingContext request;

    SignInHeader(EvidenceConfig config, RoutingContext request) {
        this.enabled = config.web().signIn().enabled();
        this.request = request;
    }

    public boolean enabled() {
        return enabled;
    }

    /** Whether to offer a sign-in: it is on, and the caller brought neither a session nor a bearer token. */
    public boolean offered() {
        SecurityIdentity identity = identity();
        return enabled && (identity == null || identity.isAnonymous());
    }

    /** The name of whoever the session signed in, or null when there is no session. */
    public String name() {
        SecurityIdentity identity = identity();
        return enabled && identity != null && SignedInSessions.isSession(identity) ? CurrentActor.nameOf(identity)
                : null;
    }

    /** The sign-in link: back to this page once signed in. */
    public String href() {
        String query = request.request().query();
        String page = request.request().path() + (query == null ? "" : "?" + query);
        return "/sign-in?to=" + URLEncoder.encode(page, StandardCharsets.UTF_8);
    }

    private SecurityIdentity identity() {
        return request.user() instanceof QuarkusHttpUser user ? user.getSecurityIdentity() : null;
    }
}
