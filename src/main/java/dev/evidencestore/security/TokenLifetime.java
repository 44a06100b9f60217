package dev.evidencestore.security;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;

import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;

/**
 * How long a bearer token may live: issued ({@code iat}) no later than now plus the clock skew, and expiring
 * ({@code exp}) at most {@code max} after it was issued. The JWT library checks that {@code exp} has not passed; it
 * takes an {@code iat} a day ahead, or an {@code exp} a century away, as it comes.
 */
record TokenLifetime(Duration max, Duration clockSkew) {

    private static final String IAT = "iat";
    private static final String EXP = "exp";

    void check(JsonObject claims, Instant now) throws UntrustedIdentity {
        Long issued = seconds(claims, IAT);
        Long expires = seconds(claims, EXP);
        if (issued != null && issued > now.plus(clockSkew).getEpochSecond()) {
            throw IdentityClaims.untrusted("iat lies " + (issued - now.getEpochSecond())
                    + " s ahead of this service's clock, beyond the allowed clock skew of " + clockSkew.toSeconds()
                    + " s");
        }
        long from = issued != null ? issued : now.getEpochSecond();
        if (expires != null && expires - from > max.toSeconds()) {
            throw IdentityClaims.untrusted("lifetime of " + (expires - from) + " s is longer than the "
                    + max.toSeconds() + " s a token may live (evidence.tokens.max-lifetime)");
        }
    }

    /**
     * The time a token expiring at {@code expires} has left at {@code now}, never negative: how long a cache may keep
     * what was learnt from it (Caffeine's per-entry expiry takes no negative duration).
     */
    static Duration left(Instant expires, Instant now) {
        Duration left = Duration.between(now, expires);
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Refuses {@code iat} or {@code exp} of another JSON type than a number, which the JWT library refuses too. */
    static void checkTypes(JsonObject claims) throws UntrustedIdentity {
        seconds(claims, IAT);
        seconds(claims, EXP);
    }

    /** A NumericDate claim in whole seconds, or null when absent; of another type, it cannot be trusted. */
    private static Long seconds(JsonObject claims, String claim) throws UntrustedIdentity {
        if (!claims.containsKey(claim)) {
            return null;
        }
        if (!(claims.get(claim) instanceof JsonNumber number)) {
            throw IdentityClaims.untrusted(claim + " must be a number");
        }
        try {
            return number.bigDecimalValue().setScale(0, RoundingMode.FLOOR).longValueExact();
        } catch (ArithmeticException e) {
            throw IdentityClaims.untrusted(claim + " is out of range");
        }
    }
}
