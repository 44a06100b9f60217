package dev.evidencestore.security;

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
        String name = IdentityClaims.displayName(token.getClaim(IdentityClaims.UPN),
                token.getClaim(IdentityClaims.PREFERRED_USERNAME), token.getSubject());
        return new Actor(name, new Principal(token.getIssuer(), token.getSubject()), identity.getRoles(),
                workspaces(token));
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
}
