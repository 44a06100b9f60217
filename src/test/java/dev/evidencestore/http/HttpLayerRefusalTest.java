package dev.evidencestore.http;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.support.RawHttp;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Requests refused below JAX-RS, by Vert.x's HTTP decoder, by Quarkus's check of the request target and by the
 * router, are problem documents too, and close the connection; Vert.x and Quarkus alone answer them with a bare
 * status line. Sent byte for byte, since no HTTP client library sends such requests.
 */
@QuarkusTest
class HttpLayerRefusalTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DECODER = "the request is not valid HTTP/1.1: its request line or a header could not "
            + "be parsed; nothing was done";

    private static RawHttp http() {
        return new RawHttp(RestAssured.port);
    }

    private static Map<String, byte[]> headers(String... namesAndValues) {
        Map<String, byte[]> headers = new LinkedHashMap<>();
        headers.put("Authorization", ("Bearer " + Tokens.alice()).getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.put(namesAndValues[i], namesAndValues[i + 1].getBytes(StandardCharsets.ISO_8859_1));
        }
        return headers;
    }

    private static void assertProblem(RawHttp.Response response, int status, String type, String title,
                                      String detail) throws IOException {
        assertEquals(status, response.status(), response.failure() + " " + response.text());
        assertEquals("application/problem+json", response.header("Content-Type"));
        assertEquals("close", response.header("Connection"));
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("type", "https://evidence-store.dev/problems/" + type);
        expected.put("title", title);
        expected.put("status", status);
        expected.put("detail", detail);
        assertEquals(expected, JSON.readValue(response.body(), new TypeReference<Map<String, Object>>() { }));
    }

    private static void assertMalformed(RawHttp.Response response, String detail) throws IOException {
        assertProblem(response, 400, "malformed-request", "The request is not well-formed HTTP", detail);
    }

    @Test
    void aRequestLineThatIsNotHttpIsAProblem() throws IOException {
        assertMalformed(http().send("GET", "/api/v1/workspaces/demo/incidents HTTP/1.1 extra", headers(),
                new byte[0]), DECODER);
    }

    @Test
    void aHeaderThatCannotBeParsedIsAProblem() throws IOException {
        String incidents = "/api/v1/workspaces/demo/incidents";
        byte[] body = "{}".getBytes(StandardCharsets.US_ASCII);
        assertMalformed(http().send("POST", incidents, headers("Content-Type", "application/json",
                "Content-Length", "abc"), body, -1L, true), DECODER);
        assertMalformed(http().send("GET", incidents, headers("Bad Header", "x"), new byte[0]), DECODER);
    }

    @Test
    void aRequestLineOverTheLimitIsA414Problem() throws IOException {
        assertProblem(http().send("GET", "/api/v1/workspaces/" + "z".repeat(70_000), headers(), new byte[0]), 414,
                "uri-too-long", "The request target is too long",
                "the request line is longer than this service accepts; nothing was done");
    }

    @Test
    void headersOverTheLimitAreA431Problem() throws IOException {
        assertProblem(http().send("GET", "/api/v1/workspaces/demo/incidents", headers("X-Padding", "p".repeat(30_000)),
                new byte[0]), 431, "header-fields-too-large", "The request header fields are too large",
                "the request headers are larger than this service accepts; nothing was done");
    }

    @Test
    void aTargetThatIsNotAUriIsAProblem() throws IOException {
        for (String target : new String[] {"/api/v1/actions/x\"y", "/api/v1/actions/%zz", "/api/v1/findings/{7*7}",
                "/api/v1/actions/a\u0007b"}) {
            assertMalformed(http().send("GET", target, headers(), new byte[0]),
                    "the request target is not a valid URI; nothing was done");
        }
    }

    @Test
    void aTargetWithoutAPathIsAProblem() throws IOException {
        assertMalformed(http().send("GET", "?limit=1", headers(), new byte[0]),
                "the request could not be routed; nothing was done");
    }

    @Test
    void wellFormedRequestsAreServedAsBefore() {
        RawHttp.Response response = http().send("GET", "/api/v1/workspaces/demo/incidents?limit=1", headers(),
                new byte[0]);
        assertEquals(200, response.status(), response.text());
        assertEquals("application/json;charset=UTF-8", response.header("Content-Type"));
    }
}
