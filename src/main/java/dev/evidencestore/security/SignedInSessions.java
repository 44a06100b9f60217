package dev.evidencestore.security;

import dev.evidencestore.EvidenceConfig;
import io.quarkus.oidc.IdTokenCredential;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.SecurityIdentityAugmentor;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The sessions of people signed in to the pages (quarkus-oidc's authorization-code flow). A session's caller is its
 * ID token, which quarkus-oidc verified against the provider's keys: it becomes the identity's principal, so
 * {@link CurrentActor} reads its name, principal, roles ({@code groups}) and {@code workspaces} exactly as it reads
 * a bearer token's. Here its identity claims and lifetime pass the same {@link IdentityClaims} checks as a bearer
 * token's, and a session whose claims cannot be trusted is refused like a forged token, whenever it is used.
 */
@ApplicationScoped
public class SignedInSessions implements SecurityIdentityAugmentor {

    private final TokenLifetime lifetime;

    @Inject
    SignedInSessions(EvidenceConfig config) {
        this(new TokenLifetime(config.tokens().maxLifetime(), config.tokens().clockSkew()));
    }

    SignedInSessions(TokenLifetime lifetime) {
        this.lifetime = lifetime;
    }

    /** Whether the identity is a signed-in session's rather than a bearer token's. */
    public static boolean isSession(SecurityIdentity identity) {
        return identity.getCredential(IdTokenCredential.class) != null;
    }

    @Override
    public Uni<SecurityIdentity> augment(SecurityIdentity identity, AuthenticationRequestContext context) {
        IdTokenCredential idToken = identity.getCredential(IdTokenCredential.class);
        if (idToken == null) {
            // a bearer token was checked when it was verified (VerifiedTokens)
            return Uni.createFrom().item(identity);
        }
        try {
            IdentityClaims.check(idToken.getToken(), lifetime);
            return Uni.createFrom().item(identity);
        } catch (UntrustedIdentity untrusted) {
            UntrustedIdentity inSession = untrusted.inSession();
            return Uni.createFrom().failure(new AuthenticationFailedException(inSession.getMessage(), inSession));
        }
    }
}
