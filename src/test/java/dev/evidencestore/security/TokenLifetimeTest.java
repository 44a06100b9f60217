package dev.evidencestore.security;

import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A validly signed token is refused when it was issued ahead of this service's clock beyond the skew, or for longer
 * than a token may live (evidence.tokens.*: 24 h and 60 s by default); its issuer may hand out only short-lived ones.
 */
@QuarkusTest
class TokenLifetimeTest {

    private static final String INCIDENTS = "/api/v1/workspaces/{ws}/incidents";
    private static final long DAY = Duration.ofDays(1).toSeconds();

    private static long now() {
        return Instant.now().getEpochSecond();
    }

    private static void accepted(String iat, String exp) {
        invalidAs(Tokens.withTimes(iat, exp)).get(INCIDENTS, "lifetime").then().statusCode(200);
    }

    private static void refused(String iat, String exp, String detail) {
        problem(invalidAs(Tokens.withTimes(iat, exp)).get(INCIDENTS, "lifetime").then(), 401, "unauthorized")
                .header("WWW-Authenticate", "Bearer").body("detail", equalTo(detail));
    }

    @Test
    void aTokenIssuedADayAheadIsRefused() {
        long iat = now() + DAY;
        refused(String.valueOf(iat), String.valueOf(iat + 600),
                "the bearer token's iat lies " + DAY + " s ahead of this service's clock, beyond the allowed clock "
                        + "skew of 60 s");
    }

    @Test
    void aTokenIssuedWithinTheSkewIsAccepted() {
        long iat = now() + 30;
        accepted(String.valueOf(iat), String.valueOf(iat + 600));
    }

    @Test
    void aTokenIssuedForACenturyIsRefused() {
        long iat = now();
        long century = Duration.ofDays(36_525).toSeconds();
        refused(String.valueOf(iat), String.valueOf(iat + century), "the bearer token's lifetime of " + century
                + " s is longer than the 86400 s a token may live (evidence.tokens.max-lifetime)");
    }

    @Test
    void aTokenMayLiveExactlyTheMaximum() {
        long iat = now() - 60;
        accepted(String.valueOf(iat), String.valueOf(iat + DAY));
        refused(String.valueOf(iat), String.valueOf(iat + DAY + 1), "the bearer token's lifetime of " + (DAY + 1)
                + " s is longer than the 86400 s a token may live (evidence.tokens.max-lifetime)");
    }

    @Test
    void timesOfAnotherTypeAreRefused() {
        long iat = now();
        refused("\"" + iat + "\"", String.valueOf(iat + 600), "the bearer token's iat must be a number");
    }

    @Test
    void whatIsRememberedOfATokenLivesUntilItsExpAndNoLonger() {
        Instant now = Instant.parse("2025-01-01T12:00:00Z");
        assertEquals(Duration.ofSeconds(600), TokenLifetime.left(now.plusSeconds(600), now));
        assertEquals(Duration.ZERO, TokenLifetime.left(now, now));
        assertEquals(Duration.ZERO, TokenLifetime.left(now.minusSeconds(1), now));
    }
}
