package dev.evidencestore.security;

import io.smallrye.jwt.auth.principal.ParseException;

/**
 * A token whose signature holds but whose identity claims cannot be trusted as they stand: one of the wrong JSON
 * type, or a name that is empty, unprintable, too long or reserved. It is a parse failure, so the token is refused
 * like a forged one (401), before any claim of it reaches a decision.
 */
public class UntrustedIdentity extends ParseException {

    public UntrustedIdentity(String detail) {
        super(detail);
    }
}
