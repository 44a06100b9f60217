package dev.evidencestore.http;

import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;

/**
 * Every value type a path takes: a value that does not parse is a 400 invalid-request naming the field as the
 * value type words it, not the 404 that JAX-RS answers for a failing parameter converter.
 */
@QuarkusTest
class TypedParametersTest {

    private static final String ID_RULE = "must have the form %s:{workspace}:v1:{incident}:{%s}; name: must match "
            + "^[a-z0-9][a-z0-9-]{0,63}$";

    private static void refused(String path, String field, String message) {
        problem(RestAssured.given().header("Authorization", "Bearer " + Tokens.alice()).get(path).then(), 400,
                "invalid-request")
                .body("detail", equalTo(field + ": " + message))
                .body("errors", equalTo(List.of(Map.of("field", field, "message", message))));
    }

    @Test
    void aMalformedWorkspaceIs400() {
        refused("/api/v1/workspaces/Not_A_Slug/incidents", "workspace", "must match ^[a-z0-9][a-z0-9-]{0,31}$");
    }

    @Test
    void aMalformedIncidentKeyIs400() {
        refused("/api/v1/workspaces/demo/incidents/inc-1", "key", "must match ^[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}$");
    }

    @Test
    void aMalformedArtifactIdIs400() {
        refused("/api/v1/artifacts/artifact:demo:v1:INC-1:Bad_Name", "id", ID_RULE.formatted("artifact", "name"));
    }

    @Test
    void aMalformedFindingIdIs400() {
        refused("/api/v1/findings/finding:demo:v1:INC-1:Bad_Name", "id", ID_RULE.formatted("finding", "name"));
    }

    @Test
    void aMalformedActionIdIs400() {
        refused("/api/v1/actions/action:demo:v1:INC-1:zero", "id",
                "must have the form action:{workspace}:v1:{incident}:{number}; number: must be a positive number");
    }

    @Test
    void aMalformedDigestIs400() {
        refused("/api/v1/blobs/sha256:abc", "digest", "must be sha256: followed by 64 lowercase hex digits");
    }
}
