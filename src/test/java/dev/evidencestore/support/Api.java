package dev.evidencestore.support;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.report.LevelResolver;
import com.atlassian.oai.validator.report.ValidationReport;
import com.atlassian.oai.validator.restassured.OpenApiValidationFilter;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.containsString;

/** Requests that are checked against the committed contract, openapi/openapi.yaml, both ways. */
public final class Api {

    public static final Path CONTRACT_FILE = Path.of("openapi/openapi.yaml");
    public static final String PROBLEM = "application/problem+json";
    public static final String PROBLEMS = "https://evidence-store.dev/problems/";

    private static final OpenApiValidationFilter CONTRACT = new OpenApiValidationFilter(
            OpenApiInteractionValidator.createForInlineApiSpecification(contract()).build());
    /** For requests that break the contract on purpose: the answer must still keep to it. */
    private static final OpenApiValidationFilter RESPONSES = new OpenApiValidationFilter(
            OpenApiInteractionValidator.createForInlineApiSpecification(contract())
                    .withLevelResolver(LevelResolver.create()
                            .withLevel("validation.request", ValidationReport.Level.IGNORE).build())
                    .build());

    private Api() {
    }

    private static String contract() {
        try {
            return Files.readString(CONTRACT_FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static RequestSpecification api() {
        return RestAssured.given().filter(CONTRACT);
    }

    /** A request that may break the contract (to test refusals); its response is still checked. */
    public static RequestSpecification invalid() {
        return RestAssured.given().filter(RESPONSES);
    }

    public static RequestSpecification invalidJson(Object body) {
        return invalid().contentType(ContentType.JSON).body(body);
    }

    public static RequestSpecification json(Object body) {
        return api().contentType(ContentType.JSON).body(body);
    }

    /** Asserts a problem document of the given type and status, without internals leaking. */
    public static ValidatableResponse problem(ValidatableResponse response, int status, String type) {
        return response.statusCode(status)
                .contentType(PROBLEM)
                .body("type", equalTo(PROBLEMS + type))
                .body("status", equalTo(status))
                .body("title", not(equalTo(null)))
                .body("detail", not(containsString("Exception")))
                .body("detail", not(containsString("dev.evidencestore")));
    }

    public static Map<String, Object> incident(String key) {
        return Map.of("key", key, "title", "Checkout latency and webhook delays", "severity", "SEV-1");
    }
}
