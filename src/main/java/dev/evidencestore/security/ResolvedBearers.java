package dev.evidencestore.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.evidencestore.Caches;
import dev.evidencestore.EvidenceConfig;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.time.Instant;
import java.util.Optional;

/**
 * The actor each bearer token was resolved to, until the token expires, so that a read answered from memory knows
 * who asks without Quarkus's authentication pipeline, which costs more than the read itself. Only what authentication
 * already resolved is remembered, under the exact {@code Authorization} header it came in (a token is immutable: the
 * same header resolves to the same actor until its {@code exp}), so a header nobody presented before, or a token
 * past its {@code exp}, is never taken from here; it goes through authentication as always.
 */
@Singleton
public class ResolvedBearers {

    private final Cache<String, Resolved> byHeader;

    ResolvedBearers(EvidenceConfig config) {
        this.byHeader = Caches.builder()
                .maximumSize(config.cache().tokens())
                .expireAfter(Expiry.creating((String header, Resolved resolved) ->
                        TokenLifetime.left(resolved.expires(), Instant.now())))
                .build();
    }

    /** Remembers what authentication resolved a request's {@code Authorization} header to. */
    public void remember(String authorization, SecurityIdentity identity, Actor actor) {
        if (authorization == null || identity == null
                || !(identity.getPrincipal() instanceof JsonWebToken token)
                || !authorization.endsWith(" " + token.getRawToken())) {
            return;
        }
        Instant expires = Instant.ofEpochSecond(token.getExpirationTime());
        if (Instant.now().isBefore(expires)) {
            byHeader.put(authorization, new Resolved(actor, expires));
        }
    }

    /** The actor this {@code Authorization} header was resolved to, if it was and its token has not expired since. */
    public Optional<Actor> actorOf(String authorization) {
        Resolved resolved = authorization == null ? null : byHeader.getIfPresent(authorization);
        if (resolved == null || !Instant.now().isBefore(resolved.expires())) {
            return Optional.empty();
        }
        return Optional.of(resolved.actor());
    }

    private record Resolved(Actor actor, Instant expires) {
    }
}
