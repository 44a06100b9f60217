package dev.evidencestore.security;

import io.smallrye.jwt.auth.principal.ParseException;

/**
 * A token whose signature holds but whose identity claims cannot be trusted as they stand: one of the wrong JSON
 * type, or a name that is empty, unprintable, too long or reserved. It is a parse failure, so the token is refused
 * like a forged one (401), before any claim of it reaches a decision.
 */
public class UntrustedIdentity extends ParseException {

    private static final String BEARER_TOKEN = "the bearer token";
    private static final String SESSION_ID_TOKEN = "the sign-in's ID token";

    private final String problem;

    private UntrustedIdentity(String token, String problem) {
        super(token + "'s " + problem);
        this.problem = problem;
    }

    /** What is wrong with a bearer token's claims, such as {@code workspaces must be an array of strings}. */
    static UntrustedIdentity ofBearerToken(String problem) {
        return new UntrustedIdentity(BEARER_TOKEN, problem);
    }

    /** The same problem, found in the ID token of a sign-in rather than in a bearer token. */
    UntrustedIdentity inSession() {
        return new UntrustedIdentity(SESSION_ID_TOKEN, problem);
    }
}
