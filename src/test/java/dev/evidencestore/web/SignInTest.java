package dev.evidencestore.web;

import dev.evidencestore.support.Api;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.KeycloakLogin;
import dev.evidencestore.support.KeycloakServer;
import dev.evidencestore.support.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signing in to the pages through a real Keycloak (realm src/test/resources/keycloak/evidence-realm.json): the
 * session opens the pages of non-public workspaces and nothing under /api/, bearer tokens of the same provider keep
 * working on both, and a person limited to one workspace sees only that one, whichever way they come.
 */
@QuarkusTest
@TestProfile(Profiles.SignIn.class)
class SignInTest {

    /** Carol's only workspace (her group's workspaces attribute). */
    static final String PAYMENTS = "payments";
    static final String PLATFORM = "platform";
    static final String UNAUTHENTICATED = "this request needs a valid bearer token";

    private static String paymentsIncident;
    private static String platformIncident;

    /** An incident in each workspace, opened by alice with her bearer token from Keycloak; once per run. */
    static synchronized void incidents() {
        if (paymentsIncident == null) {
            paymentsIncident = incident(PAYMENTS, "Card authorisations declined");
            platformIncident = incident(PLATFORM, "Cluster autoscaler stalled");
        }
    }

    static String platformIncident() {
        incidents();
        return platformIncident;
    }

    private static String incident(String workspace, String title) {
        String key = Evidence.uniqueKey();
        Api.as(KeycloakServer.accessToken("alice")).contentType(ContentType.JSON)
                .body(Map.of("key", key, "title", title, "severity", "SEV-2"))
                .post("/api/v1/workspaces/{ws}/incidents", workspace).then().statusCode(201);
        return "/workspaces/" + workspace + "/incidents/" + key;
    }

    static RequestSpecification page(Map<String, String> session) {
        return RestAssured.given().redirects().follow(false).cookies(session)
                .accept("text/html,application/xhtml+xml,*/*;q=0.8");
    }

    static Map<String, String> signedIn(String user) {
        KeycloakLogin.Outcome outcome = KeycloakLogin.signIn(RestAssured.port, user, null);
        assertEquals(302, outcome.status(), "the service's answer to the browser's return from Keycloak");
        assertTrue(!outcome.sessionCookies().isEmpty(), "a session cookie: " + outcome.setCookies());
        return outcome.sessionCookies();
    }

    @Test
    void signingInOpensTheNonPublicPageItStartedFrom() {
        incidents();
        KeycloakLogin.Outcome alice = KeycloakLogin.signIn(RestAssured.port, "alice", platformIncident);

        // quarkus-oidc takes the code out of the address, back to where the sign-in started
        assertEquals(302, alice.status());
        assertEquals("http://localhost:" + RestAssured.port + "/sign-in?to="
                + URLEncoder.encode(platformIncident, StandardCharsets.UTF_8), alice.location());
        String sessionCookie = alice.setCookies().stream().filter(c -> c.startsWith(KeycloakLogin.SESSION_COOKIE))
                .findFirst().orElseThrow();
        // for the ID token's five minutes and the 30 minutes its refresh may extend them; no script reads it, and a
        // request another site starts carries it only when it is a top-level navigation (SameSite=Lax)
        assertTrue(sessionCookie.matches("q_session=[^;]+; Max-Age=2\\d{3}; Expires=[^;]+; Path=/; HTTPOnly; "
                + "SameSite=Lax"), sessionCookie);

        page(alice.sessionCookies()).get("/sign-in?to={to}", platformIncident).then()
                .statusCode(303).header("Location", platformIncident).header("Cache-Control", "no-store");
        page(alice.sessionCookies()).get(platformIncident).then()
                .statusCode(200)
                .body(allOf(containsString("Cluster autoscaler stalled</h1>"),
                        containsString("Signed in as alice · <a href=\"/sign-out\">Sign out</a>"),
                        not(containsString(">Sign in<"))));
    }

    @Test
    void withoutASessionAPageThatIsNotPublicOffersTheSignIn() {
        incidents();
        String back = "/sign-in?to=" + URLEncoder.encode(platformIncident, StandardCharsets.UTF_8);
        page(Map.of()).get(platformIncident).then()
                .statusCode(401)
                .body(allOf(containsString("<a href=\"" + back + "\">Sign in</a>"),
                        containsString("This page is not public: <a href=\"" + back + "\">sign in</a> to open it.")));
        page(Map.of()).get("/").then().statusCode(200)
                .body(containsString("the others open once you <a href=\"/sign-in\">sign in</a>."));
    }

    @Test
    void theApiTakesNoSessionCookie() {
        incidents();
        Map<String, String> alice = signedIn("alice");
        String path = "/api/v1/workspaces/" + PLATFORM + "/incidents";

        Response withCookie = RestAssured.given().cookies(alice).get(path);
        Response withNothing = RestAssured.given().get(path);
        for (Response refused : List.of(withCookie, withNothing)) {
            refused.then().statusCode(401).contentType(Api.PROBLEM).header("WWW-Authenticate", "Bearer")
                    .body("detail", equalTo(UNAUTHENTICATED));
        }
        assertEquals(withNothing.asString(), withCookie.asString());

        // a write a cross-site form could send: refused before anything is done, as without the cookie
        RestAssured.given().cookies(alice).contentType(ContentType.JSON)
                .body(Map.of("key", Evidence.uniqueKey(), "title", "Forged", "severity", "SEV-1"))
                .post(path).then().statusCode(401).body("detail", equalTo(UNAUTHENTICATED));
        RestAssured.given().cookies(alice).get("/q/openapi").then().statusCode(200);
    }

    @Test
    void aBearerTokenOfTheSameProviderWorksOnTheApiAndThePages() {
        incidents();
        String alice = KeycloakServer.accessToken("alice");
        RestAssured.given().header("Authorization", "Bearer " + alice)
                .get("/api/v1/workspaces/{ws}/incidents", PLATFORM).then().statusCode(200)
                .body("items.title", org.hamcrest.Matchers.hasItem("Cluster autoscaler stalled"));
        page(Map.of()).header("Authorization", "Bearer " + alice).get(platformIncident).then()
                .statusCode(200).body(allOf(containsString("Cluster autoscaler stalled</h1>"),
                        not(containsString("Sign in")), not(containsString("Sign out"))));
    }

    @Test
    void theUserLimitedToOneWorkspaceSeesOnlyThatOneEitherWay() {
        incidents();
        Map<String, String> carol = signedIn("carol");
        page(carol).get("/").then().statusCode(200)
                .body(allOf(containsString("<a href=\"/workspaces/payments\">payments</a>"),
                        not(containsString("/workspaces/platform"))));
        page(carol).get(paymentsIncident).then().statusCode(200)
                .body(containsString("Card authorisations declined</h1>"));
        page(carol).get(platformIncident).then().statusCode(404);

        String token = KeycloakServer.accessToken("carol");
        RestAssured.given().header("Authorization", "Bearer " + token)
                .get("/api/v1/workspaces/{ws}/incidents", PAYMENTS).then().statusCode(200);
        RestAssured.given().header("Authorization", "Bearer " + token)
                .get("/api/v1/workspaces/{ws}/incidents", PLATFORM).then().statusCode(404);
    }

    @Test
    void aSignInWhoseNameCannotBeShownStartsNoSession() {
        // the realm's user "anonymous": the name of callers without a token, which IdentityClaims refuses
        KeycloakLogin.Outcome refused = KeycloakLogin.signIn(RestAssured.port, "anonymous", null);
        assertEquals(401, refused.status());
        assertEquals(Map.of(), refused.sessionCookies());
        assertEquals("{\"type\":\"" + Api.PROBLEMS + "unauthorized\",\"title\":\"Authentication required\","
                + "\"status\":401,\"detail\":\"the sign-in's ID token's upn \\\"anonymous\\\" is reserved for callers "
                + "without a token\"}", refused.body());
    }

    @Test
    void aSessionCookieTheServiceDidNotMakeIsRefusedAndRemoved() {
        Response forged = RestAssured.given().redirects().follow(false)
                .cookie(KeycloakLogin.SESSION_COOKIE, "forged").get("/");
        // quarkus-oidc cannot decrypt it and leaves it in place; the refusal removes it, so the next page is anonymous
        forged.then().statusCode(401).contentType(Api.PROBLEM)
                .header("Set-Cookie", "q_session=;Version=1;Path=/;Max-Age=0;HttpOnly;SameSite=Lax")
                .body("detail", equalTo("the sign-in session is invalid or has ended; sign in again"));
    }

    @Test
    void aCallbackTheBrowserDidNotStartSignsNobodyIn() {
        Response forged = RestAssured.given().redirects().follow(false)
                .get("/sign-in?code=forged-code&state=forged-state");
        // no state cookie of this browser: the code is ignored and a sign-in of its own begins
        forged.then().statusCode(302)
                .header("Location", startsWith(KeycloakServer.issuer() + "/protocol/openid-connect/auth?"));
        assertTrue(forged.headers().getValues("Set-Cookie").stream()
                .noneMatch(c -> c.startsWith(KeycloakLogin.SESSION_COOKIE)), forged.headers().toString());
    }

    @Test
    void theSignInGoesBackOnlyToPagesOfThisService() {
        Map<String, String> alice = signedIn("alice");
        for (String elsewhere : List.of("https://evil.example/", "//evil.example/", "/\\evil.example", "evil")) {
            page(alice).get("/sign-in?to={to}", elsewhere).then().statusCode(303).header("Location", "/");
        }
        page(alice).get("/sign-in").then().statusCode(303).header("Location", "/");
        page(alice).get("/sign-in?to={to}", "/workspaces/platform?cursor=x").then().statusCode(303)
                .header("Location", "/workspaces/platform?cursor=x");
    }

    @Test
    void signingOutEndsTheSessionHereAndAtTheProvider() {
        Map<String, String> alice = signedIn("alice");
        Response out = page(alice).get("/sign-out");
        out.then().statusCode(302)
                .header("Location", allOf(startsWith(KeycloakServer.issuer() + "/protocol/openid-connect/logout?"),
                        containsString("id_token_hint="),
                        containsString("post_logout_redirect_uri=http%3A%2F%2Flocalhost%3A" + RestAssured.port
                                + "%2F")));
        assertTrue(out.headers().getValues("Set-Cookie").stream()
                .anyMatch(c -> c.startsWith(KeycloakLogin.SESSION_COOKIE + "=;") && c.contains("Max-Age=0")),
                out.headers().toString());

        page(Map.of()).get("/sign-out").then().statusCode(303).header("Location", "/")
                .header("Set-Cookie", emptyOrNullString());
    }
}
