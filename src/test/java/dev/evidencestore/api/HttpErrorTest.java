package dev.evidencestore.api;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.containsString;

/** Requests outside the contract still get problem documents, never an HTML page or a stack trace. */
@QuarkusTest
class HttpErrorTest {

    @Test
    void unknownRoutesAreProblems() {
        problem(RestAssured.get("/api/v1/nothing/here").then(), 404, "not-found");
        problem(RestAssured.given().urlEncodingEnabled(false).get("/api/v1/blobs/a/b/c").then(), 404, "not-found");
    }

    @Test
    void wrongMethodsAreProblems() {
        problem(RestAssured.delete("/api/v1/blobs/sha256:" + "0".repeat(64)).then(), 405, "method-not-allowed");
        problem(RestAssured.delete("/api/v1/artifacts/artifact:demo:v1:INC-1:x").then(), 405, "method-not-allowed");
        problem(RestAssured.put("/api/v1/artifacts/artifact:demo:v1:INC-1:x").then(), 405, "method-not-allowed");
    }

    @Test
    void unacceptableMediaTypesAreProblems() {
        problem(RestAssured.given().accept("text/html").get("/api/v1/workspaces/demo/incidents").then(), 406,
                "not-acceptable").body("detail", containsString("media type"));
    }
}
