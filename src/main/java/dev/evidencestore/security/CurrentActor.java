package dev.evidencestore.security;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.security.Principal;
import java.util.Set;
import java.util.stream.Collectors;

/** The actor of the current request, read from its verified token. */
@RequestScoped
public class CurrentActor {

    private final SecurityIdentity identity;
    private Actor actor;

    CurrentActor(SecurityIdentity identity) {
        this.identity = identity;
    }

    public Actor get() {
        if (actor == null) {
            actor = of(identity);
        }
        return actor;
    }

    /** The name recorded as {@code createdBy}, {@code verifiedBy} or {@code reviewedBy}. */
    public String name() {
        return nameOf(get());
    }

    /**
     * The name of whoever {@code identity} is, for code that resolved the identity itself (without blocking) rather
     * than through the request's CurrentActor, which may have to wait for it.
     */
    public static String nameOf(SecurityIdentity identity) {
        return nameOf(of(identity));
    }

    private static String nameOf(Actor actor) {
        return actor.anonymous() ? "anonymous" : actor.name();
    }

    public static Actor of(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return Actor.ANONYMOUS;
        }
        Principal principal = identity.getPrincipal();
        if (!(principal instanceof JsonWebToken token)) {
            return new Actor(principal.getName(), identity.getRoles(), null);
        }
        String upn = token.getClaim("upn");
        String name = upn != null ? upn : token.getSubject() != null ? token.getSubject() : principal.getName();
        return new Actor(name, identity.getRoles(), workspaces(token));
    }

    private static Set<String> workspaces(JsonWebToken token) {
        Object claim = token.getClaim("workspaces");
        if (claim == null) {
            return null;
        }
        if (claim instanceof JsonArray array) {
            return array.stream().filter(JsonString.class::isInstance).map(v -> ((JsonString) v).getString())
                    .collect(Collectors.toSet());
        }
        // a malformed claim limits the token to nothing rather than to everything
        return Set.of();
    }
}
