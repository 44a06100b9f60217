package dev.evidencestore.security;

import io.quarkus.oidc.IdTokenCredential;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A signed-in session's ID token passes the checks of a bearer token's identity claims and lifetime
 * ({@link IdentityClaims}), and a session's refusal names the ID token rather than a bearer token.
 */
class SignedInSessionsTest {

    private static final long NOW = Instant.now().getEpochSecond();
    private static final String FIVE_MINUTES = ",\"iat\":" + NOW + ",\"exp\":" + (NOW + 300);

    private final SignedInSessions sessions = new SignedInSessions(new TokenLifetime(Duration.ofHours(24),
            Duration.ofSeconds(60)));

    @Test
    void aSessionWithTrustedClaimsIsLetThrough() {
        SecurityIdentity session = session("\"sub\":\"f1\",\"preferred_username\":\"alice\","
                + "\"groups\":[\"reader\"],\"workspaces\":[\"payments\"]" + FIVE_MINUTES);
        assertTrue(SignedInSessions.isSession(session));
        assertSame(session, sessions.augment(session, null).await().indefinitely());
    }

    @Test
    void aSessionWhoseClaimsCannotBeTrustedIsRefusedNamingTheClaim() {
        assertRefused("the sign-in's ID token's workspaces must be an array of strings",
                "\"sub\":\"f1\",\"preferred_username\":\"carol\",\"workspaces\":\"payments\"" + FIVE_MINUTES);
        assertRefused("the sign-in's ID token's preferred_username \"Anonymous\" is reserved for callers without a "
                + "token", "\"sub\":\"f1\",\"preferred_username\":\"Anonymous\"" + FIVE_MINUTES);
        assertRefused("the sign-in's ID token's sub is missing; it is what tells one caller from another",
                "\"preferred_username\":\"alice\"" + FIVE_MINUTES);
    }

    @Test
    void aSessionWhoseTokenLivesTooLongIsRefused() {
        assertRefused("the sign-in's ID token's lifetime of 172800 s is longer than the 86400 s a token may live "
                + "(evidence.tokens.max-lifetime)", "\"sub\":\"f1\",\"preferred_username\":\"alice\",\"iat\":" + NOW
                + ",\"exp\":" + (NOW + 172800));
    }

    @Test
    void anIdentityWithoutAnIdTokenIsLeftAsItIs() {
        SecurityIdentity bearer = QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("alice"))
                .build();
        assertFalse(SignedInSessions.isSession(bearer));
        assertSame(bearer, sessions.augment(bearer, null).await().indefinitely());
    }

    private void assertRefused(String detail, String members) {
        AuthenticationFailedException refused = assertThrows(AuthenticationFailedException.class,
                () -> sessions.augment(session(members), null).await().indefinitely());
        assertEquals(detail, refused.getMessage());
        assertEquals(detail, refused.getCause().getMessage());
    }

    /** An identity as quarkus-oidc makes one for a session, with a (verified) ID token of these claims. */
    private static SecurityIdentity session(String members) {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String token = url.encodeToString("{\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8)) + "."
                + url.encodeToString(("{\"iss\":\"https://idp.example/realms/ops\"," + members + "}")
                .getBytes(StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
        return QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal("session"))
                .addCredential(new IdTokenCredential(token)).build();
    }
}
