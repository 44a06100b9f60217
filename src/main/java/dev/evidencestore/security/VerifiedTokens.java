package dev.evidencestore.security;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.evidencestore.Caches;
import dev.evidencestore.EvidenceConfig;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.decorator.Decorator;
import jakarta.decorator.Delegate;
import jakarta.enterprise.inject.Any;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.time.Instant;

/**
 * Bearer tokens already verified, until they expire. Tooling sends the same token with every request, and checking
 * its RS256 signature again each time was a third of the CPU a small read cost. A token is immutable: the same
 * string verified once verifies again until its {@code exp}, so only an exact repeat is taken from here, and only
 * while it has not expired; anything else goes to smallrye-jwt's own parser. A token verified here also has its
 * identity claims checked ({@link IdentityClaims}), so only tokens that passed both are kept.
 */
@Decorator
@Priority(10)
public abstract class VerifiedTokens implements JWTParser {

    private final JWTParser parser;
    private final Cache<String, JsonWebToken> byToken;
    private final TokenLifetime lifetime;

    @Inject
    VerifiedTokens(@Delegate @Any JWTParser parser, EvidenceConfig config) {
        this.parser = parser;
        this.lifetime = new TokenLifetime(config.tokens().maxLifetime(), config.tokens().clockSkew());
        this.byToken = Caches.builder()
                .maximumSize(config.cache().tokens())
                .expireAfter(Expiry.creating((String token, JsonWebToken jwt) ->
                        TokenLifetime.left(Instant.ofEpochSecond(jwt.getExpirationTime()), Instant.now())))
                .build();
    }

    @Override
    public JsonWebToken parse(String token) throws ParseException {
        // an entry lives until its token's exp and no longer (Caffeine's per-entry expiry)
        JsonWebToken known = byToken.getIfPresent(token);
        if (known != null) {
            return known;
        }
        JsonWebToken verified;
        try {
            verified = parser.parse(token);
        } catch (ParseException | RuntimeException refused) {
            // smallrye-jwt refuses some identity claims of another type (a numeric sub) and fails on others with a
            // ClassCastException (groups as an object); the token is refused either way, and the answer names the
            // claim when it is one of those, which is what whoever configures the identity provider needs to know
            IdentityClaims.checkIfReadable(token);
            if (refused instanceof ParseException parseFailure) {
                throw parseFailure;
            }
            throw new ParseException("the token's claims cannot be read", refused);
        }
        IdentityClaims.check(token, lifetime);
        byToken.put(token, verified);
        return verified;
    }
}
