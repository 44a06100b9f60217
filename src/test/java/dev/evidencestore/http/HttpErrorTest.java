package dev.evidencestore.http;

import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.containsString;

/** Requests outside the contract still get problem documents, never an HTML page or a stack trace. */
@QuarkusTest
class HttpErrorTest {

    private static RequestSpecification alice() {
        return RestAssured.given().auth().oauth2(Tokens.alice());
    }

    @Test
    void unknownRoutesAreProblems() {
        problem(alice().get("/api/v1/nothing/here").then(), 404, "not-found");
        problem(alice().urlEncodingEnabled(false).get("/api/v1/blobs/a/b/c").then(), 404, "not-found");
    }

    @Test
    void withoutATokenUnknownRoutesNeedOneToo() {
        problem(RestAssured.get("/api/v1/nothing/here").then(), 401, "unauthorized")
                .header("WWW-Authenticate", "Bearer");
    }

    @Test
    void wrongMethodsAreProblems() {
        problem(alice().delete("/api/v1/blobs/sha256:" + "0".repeat(64)).then(), 405, "method-not-allowed");
        problem(alice().delete("/api/v1/artifacts/artifact:demo:v1:INC-1:x").then(), 405, "method-not-allowed");
        problem(alice().put("/api/v1/artifacts/artifact:demo:v1:INC-1:x").then(), 405, "method-not-allowed");
    }

    @Test
    void unacceptableMediaTypesAreProblems() {
        problem(alice().accept("text/html").get("/api/v1/workspaces/demo/incidents").then(), 406,
                "not-acceptable").body("detail", containsString("media type"));
    }
}
