package dev.evidencestore.http;

import dev.evidencestore.support.Api;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The classifier agrees with the contract on every operation: what answers bytes or a zip is a download, what takes
 * any bytes is an upload, everything else is counted with the other requests. A new streaming route in the contract
 * fails here until {@link RequestKind} knows it.
 */
class RequestKindTest {

    /** Answers of bytes: opaque, a zip, or whatever media type an artifact was bound with. */
    private static final Set<String> STREAMED = Set.of("application/octet-stream", "application/zip", "*/*");
    private static final Map<String, String> SAMPLES = Map.of("{workspace}", "demo", "{key}", "INC-1423",
            "{digest}", "sha256:" + "ab".repeat(32), "{id}", "artifact:demo:v1:INC-1423:grafana-checkout",
            "{index}", "7");

    @Test
    void everyOperationOfTheContractIsClassedByWhatItStreams() throws IOException {
        ParseOptions options = new ParseOptions();
        options.setResolveFully(true);
        OpenAPI contract = new OpenAPIV3Parser().readContents(Files.readString(Api.CONTRACT_FILE), null, options)
                .getOpenAPI();
        Map<String, RequestKind> expected = new TreeMap<>();
        Map<String, RequestKind> classed = new TreeMap<>();
        for (Map.Entry<String, PathItem> path : contract.getPaths().entrySet()) {
            String sample = sample(path.getKey());
            path.getValue().readOperationsMap().forEach((method, operation) -> {
                String name = method + " " + path.getKey();
                expected.put(name, expectedKind(method.name(), operation));
                classed.put(name, RequestKind.of(method.name(), sample));
            });
        }
        assertEquals(expected, classed);
        assertTrue(expected.values().stream().filter(RequestKind.DOWNLOAD::equals).count() >= 3,
                "blob bytes, artifact content and the evidence bundle stream: " + expected);
        assertEquals(3, expected.values().stream().filter(RequestKind.UPLOAD::equals).count(), expected.toString());
    }

    private static RequestKind expectedKind(String method, Operation operation) {
        if (operation.getRequestBody() != null && streamsIn(operation.getRequestBody().getContent())) {
            return RequestKind.UPLOAD;
        }
        boolean streamsOut = operation.getResponses().entrySet().stream()
                .filter(response -> response.getKey().startsWith("2"))
                .map(Map.Entry::getValue).map(ApiResponse::getContent)
                .anyMatch(content -> content != null && content.keySet().stream().anyMatch(STREAMED::contains));
        return streamsOut && method.equals("GET") ? RequestKind.DOWNLOAD : RequestKind.OTHER;
    }

    private static boolean streamsIn(Content content) {
        return content != null && content.keySet().stream()
                .anyMatch(type -> type.equals("*/*") || type.equals("application/octet-stream")
                        || type.equals("application/x-tar"));
    }

    private static String sample(String template) {
        String path = template;
        for (Map.Entry<String, String> parameter : SAMPLES.entrySet()) {
            path = path.replace(parameter.getKey(), parameter.getValue());
        }
        assertTrue(!path.contains("{"), "a sample value for every parameter of " + template);
        return path;
    }

    @Test
    void healthMetricsAndTheContractAreNotCounted() {
        assertEquals(RequestKind.UNCOUNTED, RequestKind.of("GET", "/q/health/live"));
        assertEquals(RequestKind.UNCOUNTED, RequestKind.of("GET", "/q/metrics"));
        assertEquals(RequestKind.UNCOUNTED, RequestKind.of("GET", "/q/openapi"));
    }

    @Test
    void onlyAPutOfOneBlobNamesItsDigest() {
        String blob = "/api/v1/blobs/sha256:" + "ab".repeat(32);
        assertTrue(RequestKind.putsBlobAtDigest("PUT", blob));
        assertTrue(RequestKind.putsBlobAtDigest("PUT", "/" + blob + "/"));
        assertFalse(RequestKind.putsBlobAtDigest("POST", "/api/v1/blobs"));
        assertFalse(RequestKind.putsBlobAtDigest("GET", blob));
        assertFalse(RequestKind.putsBlobAtDigest("POST", "/api/v1/workspaces/demo/incidents/INC-1/artifact-batches"));
    }

    /** Spellings the router still sends to the same resource are classed as it: empty segments, a query. */
    @Test
    void spellingsOfAStreamingRouteAreStillDownloads() {
        String blob = "/api/v1/blobs/sha256:" + "ab".repeat(32);
        assertEquals(RequestKind.DOWNLOAD, RequestKind.of("GET", "/" + blob + "/"));
        assertEquals(RequestKind.DOWNLOAD, RequestKind.of("GET", blob + "?x=1"));
        assertEquals(RequestKind.UPLOAD, RequestKind.of("PUT", blob));
        assertEquals(RequestKind.UPLOAD, RequestKind.of("POST", "/api/v1/blobs/"));
        assertEquals(RequestKind.OTHER, RequestKind.of("HEAD", blob));
        assertEquals(RequestKind.OTHER, RequestKind.of("GET", "/artifacts/artifact:demo:v1:INC-1423:x"));
        assertEquals(RequestKind.OTHER, RequestKind.of("GET", "/api/v1/blobs"));
    }
}
