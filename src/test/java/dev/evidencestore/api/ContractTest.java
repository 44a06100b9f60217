package dev.evidencestore.api;

import dev.evidencestore.http.Idempotent;
import dev.evidencestore.support.Api;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * openapi/openapi.yaml cannot drift from the code: every JAX-RS operation is in the contract and the contract
 * has no operation the code lacks. (Request and response shapes are checked by every resource test, which runs
 * through {@link Api#api()}.)
 */
@QuarkusTest
class ContractTest {

    private static OpenAPI contract() throws IOException {
        SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(Files.readString(Api.CONTRACT_FILE));
        assertEquals(java.util.List.of(), parsed.getMessages(), "the contract must be valid OpenAPI");
        return parsed.getOpenAPI();
    }

    private static Set<String> operationsOf(OpenAPI openApi) {
        Set<String> operations = new TreeSet<>();
        for (Map.Entry<String, PathItem> path : openApi.getPaths().entrySet()) {
            path.getValue().readOperationsMap().keySet()
                    .forEach(method -> operations.add(method + " " + path.getKey()));
        }
        return operations;
    }

    /** Operations that take the given request header. */
    private static Set<String> operationsWithHeader(OpenAPI openApi, String header) {
        Set<String> operations = new TreeSet<>();
        for (Map.Entry<String, PathItem> path : openApi.getPaths().entrySet()) {
            path.getValue().readOperationsMap().forEach((method, operation) -> {
                if (operation.getParameters() != null && operation.getParameters().stream()
                        .map(p -> resolved(openApi, p))
                        .anyMatch(p -> header.equals(p.getName()) && "header".equals(p.getIn()))) {
                    operations.add(method + " " + path.getKey());
                }
            });
        }
        return operations;
    }

    private static Parameter resolved(OpenAPI openApi, Parameter parameter) {
        String ref = parameter.get$ref();
        return ref == null ? parameter
                : openApi.getComponents().getParameters().get(ref.substring(ref.lastIndexOf('/') + 1));
    }

    private static Set<String> operationsInCode() throws Exception {
        return operationsInCode(method -> true);
    }

    private static Set<String> operationsInCode(Predicate<Method> which) throws Exception {
        Set<String> operations = new TreeSet<>();
        java.nio.file.Path classes = java.nio.file.Path.of("target/classes/dev/evidencestore/api");
        try (Stream<java.nio.file.Path> files = Files.list(classes)) {
            for (java.nio.file.Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String name = file.getFileName().toString().replace(".class", "");
                Class<?> type = Class.forName("dev.evidencestore.api." + name);
                Path root = type.getAnnotation(Path.class);
                if (root != null) {
                    addOperations(operations, root.value(), type, which);
                }
            }
        }
        return operations;
    }

    private static void addOperations(Set<String> operations, String root, Class<?> resource,
                                      Predicate<Method> which) {
        for (Method method : resource.getDeclaredMethods()) {
            if (!which.test(method)) {
                continue;
            }
            for (Annotation annotation : method.getAnnotations()) {
                HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
                if (http != null) {
                    Path sub = method.getAnnotation(Path.class);
                    String path = sub == null ? root : root + (sub.value().startsWith("/") ? "" : "/") + sub.value();
                    operations.add(http.value() + " " + path);
                }
            }
        }
    }

    @Test
    void everyOperationInTheCodeIsInTheContractAndNoOther() throws Exception {
        assertEquals(operationsInCode(), operationsOf(contract()));
    }

    @Test
    void exactlyTheIdempotentOperationsTakeAnIdempotencyKey() throws Exception {
        Set<String> idempotent = operationsInCode(method -> method.isAnnotationPresent(Idempotent.class));
        assertEquals(idempotent, operationsWithHeader(contract(), "Idempotency-Key"));
        assertEquals(16, idempotent.size(), "every create and change: " + idempotent);
    }

    @Test
    void theServiceServesTheContract() throws Exception {
        Set<String> served = new TreeSet<>();
        Map<String, Map<String, Object>> paths = RestAssured.given().queryParam("format", "json").get("/q/openapi")
                .then().statusCode(200).extract().jsonPath().getMap("paths");
        paths.forEach((path, item) -> item.keySet().stream()
                .filter(key -> Set.of("get", "put", "post", "patch", "delete", "head").contains(key))
                .forEach(method -> served.add(method.toUpperCase() + " " + path)));
        assertEquals(operationsOf(contract()), served);
    }
}
