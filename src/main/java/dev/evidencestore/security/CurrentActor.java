package dev.evidencestore.security;

import com.github.benmanes.caffeine.cache.Cache;
import dev.evidencestore.Caches;
import dev.evidencestore.domain.Attribution;
import dev.evidencestore.domain.DisplayName;
import dev.evidencestore.domain.Principal;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * The actor of the current request, read from its verified token. Every token reaching here passed
 * {@link IdentityClaims} when it was verified, so its identity claims have their types and its names are showable.
 */
@RequestScoped
public class CurrentActor {

    /**
     * What each verified token says of its bearer, read once: {@link VerifiedTokens} hands out the same token object
     * for every repeat of a token, and smallrye-jwt answers each read of a custom claim (such as workspaces) by
     * throwing and catching an exception, which three reads per request made 2% of a small upload's CPU. Weak keys
     * compare by identity, so an entry lives exactly as long as its token object.
     */
    private static final Cache<JsonWebToken, Bearer> BEARERS = Caches.builder().weakKeys()
            .maximumSize(10_000).build();

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

    /** The display name recorded as {@code createdBy}, {@code verifiedBy} or {@code reviewedBy}. */
    public String name() {
        return nameOf(get());
    }

    /** The principal recorded beside {@link #name()}, in the form records keep; null for an anonymous caller. */
    public String principal() {
        return attribution().principalForm();
    }

    /** The display name and principal a record written now carries. */
    public Attribution attribution() {
        return get().attribution();
    }

    /**
     * The name of whoever {@code identity} is, for code that resolved the identity itself (without blocking) rather
     * than through the request's CurrentActor, which may have to wait for it.
     */
    public static String nameOf(SecurityIdentity identity) {
        return nameOf(of(identity));
    }

    private static String nameOf(Actor actor) {
        return actor.anonymous() ? DisplayName.ANONYMOUS : actor.name();
    }

    public static Actor of(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return Actor.ANONYMOUS;
        }
        if (!(identity.getPrincipal() instanceof JsonWebToken token)) {
            // an identity the service made itself (the demo loader), named by what it acts as
            String name = identity.getPrincipal().getName();
            return new Actor(name, new Principal(Actor.LOCAL_ISSUER, name), identity.getRoles(), null);
        }
        Bearer bearer = BEARERS.get(token, CurrentActor::bearer);
        return new Actor(bearer.name(), bearer.principal(), identity.getRoles(), bearer.workspaces());
    }

    private static Bearer bearer(JsonWebToken token) {
        String name = IdentityClaims.displayName(token.getClaim(IdentityClaims.UPN),
                token.getClaim(IdentityClaims.PREFERRED_USERNAME), token.getSubject());
        return new Bearer(name, new Principal(token.getIssuer(), token.getSubject()), workspaces(token));
    }

    private static Set<String> workspaces(JsonWebToken token) {
        if (!token.containsClaim(IdentityClaims.WORKSPACES)) {
            return null;
        }
        if (token.getClaim(IdentityClaims.WORKSPACES) instanceof JsonArray array) {
            return array.stream().map(v -> ((JsonString) v).getString()).collect(Collectors.toSet());
        }
        // IdentityClaims refuses any other type; were one to get here, it would reach nothing rather than everything
        return Set.of();
    }

    /** The bearer's name, principal and workspaces (null: every workspace), as its token names them. */
    private record Bearer(String name, Principal principal, Set<String> workspaces) {
    }
}
