package dev.evidencestore.web;

import dev.evidencestore.support.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Without {@code evidence.web.sign-in.enabled} (the default) there is no sign-in: its paths do not exist, the pages
 * offer none, and a session cookie, even one that looks like quarkus-oidc's, is nobody's.
 */
@QuarkusTest
class SignInOffTest {

    @Test
    void theSignInPathsAreUnknownPaths() {
        Response unknown = RestAssured.given().get("/no-such-page");
        unknown.then().statusCode(404).contentType(Api.PROBLEM).body("detail", equalTo("no resource at this path"));
        for (String path : new String[] {"/sign-in", "/sign-in?to=/", "/sign-out"}) {
            Response answer = RestAssured.given().redirects().follow(false).get(path);
            answer.then().statusCode(404).contentType(Api.PROBLEM);
            assertEquals(unknown.asString(), answer.asString(), path);
        }
    }

    @Test
    void thePagesOfferNoSignInAndIgnoreSessionCookies() {
        WebFixtures.browser().cookie("q_session", "forged").get("/").then()
                .statusCode(200)
                .body(allOf(containsString("the others open once you are signed in."),
                        not(containsString("sign-in")), not(containsString("Sign out"))));
    }
}
