package dev.evidencestore.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.evidencestore.support.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code /q/openapi} serves the committed contract byte for byte, as YAML or JSON as asked, and Swagger UI reads it. */
@QuarkusTest
class ContractRouteTest {

    private static final String YAML = "application/yaml;charset=UTF-8";
    private static final String JSON = "application/json;charset=UTF-8";

    @Test
    void servesTheCommittedFileAsIs() throws Exception {
        Response response = RestAssured.get("/q/openapi");
        assertEquals(200, response.statusCode());
        assertEquals(YAML, response.contentType());
        assertEquals("Accept", response.header("Vary"));
        assertArrayEquals(Files.readAllBytes(Api.CONTRACT_FILE), response.asByteArray());
        assertArrayEquals(Files.readAllBytes(Api.CONTRACT_FILE), RestAssured.get("/q/openapi.yaml").asByteArray());
        assertEquals(YAML, RestAssured.get("/q/openapi.yml").contentType());
    }

    @Test
    void servesTheSameDocumentAsJsonWhenAskedInAnyOfThreeWays() throws Exception {
        JsonNode committed = new YAMLMapper().readTree(Files.readAllBytes(Api.CONTRACT_FILE));
        Response[] asked = {
            RestAssured.given().queryParam("format", "json").get("/q/openapi"),
            RestAssured.given().queryParam("format", "JSON").get("/q/openapi"),
            RestAssured.given().accept("application/json").get("/q/openapi"),
            RestAssured.get("/q/openapi.json"),
        };
        for (Response response : asked) {
            assertEquals(200, response.statusCode());
            assertEquals(JSON, response.contentType());
            assertEquals(committed, new ObjectMapper().readTree(response.asByteArray()));
        }
        assertEquals(YAML, RestAssured.given().queryParam("format", "yaml").get("/q/openapi").contentType());
    }

    @Test
    void answersHeadWithTheHeadersAndNoBody() {
        Response response = RestAssured.head("/q/openapi");
        assertEquals(200, response.statusCode());
        assertEquals(YAML, response.contentType());
        assertEquals(0, response.asByteArray().length);
    }

    @Test
    void swaggerUiReadsTheContractHere() {
        Response page = RestAssured.get("/q/swagger-ui/");
        assertEquals(200, page.statusCode());
        assertTrue(page.asString().contains("/q/openapi"), "Swagger UI's page points at /q/openapi");
    }
}
