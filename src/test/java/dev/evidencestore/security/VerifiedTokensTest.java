package dev.evidencestore.security;

import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Instant;

import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;

/** A token verified once is taken from memory on repeats, but never past the moment the verifier would refuse it. */
@QuarkusTest
class VerifiedTokensTest {

    private static final String INCIDENTS = "/api/v1/workspaces/demo/incidents";
    /** smallrye-jwt's default clock skew: a token is accepted until this long after its {@code exp}. */
    private static final long CLOCK_SKEW_SECONDS = 60;

    @Test
    void aRepeatedTokenIsRefusedOnceItExpires() throws InterruptedException {
        long expiresIn = 3 - CLOCK_SKEW_SECONDS;
        long refusedFrom = Instant.now().getEpochSecond() + expiresIn + CLOCK_SKEW_SECONDS + 1;
        String token = Tokens.expiringIn(expiresIn);
        as(token).get(INCIDENTS).then().statusCode(200);
        as(token).get(INCIDENTS).then().statusCode(200);

        while (Instant.now().getEpochSecond() <= refusedFrom) {
            Thread.sleep(250);
        }
        problem(invalidAs(token).get(INCIDENTS).then(), 401, "unauthorized");
    }

    @Test
    void aTokenThatFailedIsNeverRemembered() {
        String forged = Tokens.badSignature();
        problem(invalidAs(forged).get(INCIDENTS).then(), 401, "unauthorized");
        problem(invalidAs(forged).get(INCIDENTS).then(), 401, "unauthorized");
        as(Tokens.alice()).get(INCIDENTS).then().statusCode(200);
    }
}
