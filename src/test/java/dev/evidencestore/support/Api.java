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

    /** A request as alice, who holds every role, checked against the contract both ways. */
    public static RequestSpecification api() {
        return as(Tokens.alice());
    }

    /** A request with this bearer token, checked against the contract both ways. */
    public static RequestSpecification as(String token) {
        // a plain header rather than auth().oauth2(): the contract filter checks the request's security too
        return RestAssured.given().filter(CONTRACT).header("Authorization", "Bearer " + token);
    }

    /** A review by bob, a second person, so that four-eyes rules do not stand in the way. */
    public static RequestSpecification reviewerJson(Object body) {
        return as(Tokens.bob()).contentType(ContentType.JSON).body(body);
    }

    /** A request without a token, checked against the contract both ways. */
    public static RequestSpecification anonymous() {
        return RestAssured.given().filter(CONTRACT);
    }

    /** A request that may break the contract (to test refusals); its response is still checked. */
    public static RequestSpecification invalid() {
        return invalidAs(Tokens.alice());
    }

    /** A review by bob that may break the contract; its response is still checked. */
    public static RequestSpecification invalidReviewerJson(Object body) {
        return invalidAs(Tokens.bob()).contentType(ContentType.JSON).body(body);
    }

    /** A request with this token that may break the contract; its response is still checked. */
    public static RequestSpecification invalidAs(String token) {
        RequestSpecification request = RestAssured.given().filter(RESPONSES);
        return token == null ? request : request.header("Authorization", "Bearer " + token);
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
