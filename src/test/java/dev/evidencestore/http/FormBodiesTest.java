package dev.evidencestore.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;

import static dev.evidencestore.support.Api.invalid;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Writes whose body is bytes of any type, or nothing, refuse the three content types a form or script on another
 * site can make a browser send without a preflight; what they refuse is not stored. Sent as raw requests: REST
 * Assured would encode a form body itself.
 */
@QuarkusTest
class FormBodiesTest {

    private static final List<String> FORM_TYPES = List.of("application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x", "text/plain", "Text/Plain; charset=utf-8");
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void blobUploadsRefuseFormBodiesAndStoreNothing() throws Exception {
        for (String type : FORM_TYPES) {
            byte[] bytes = Evidence.uniqueBytes(64);
            String digest = "sha256:" + DigestUtils.sha256Hex(bytes);
            refused(send("POST", "/api/v1/blobs", type, bytes, Tokens.alice()), type);
            refused(send("PUT", "/api/v1/blobs/" + digest, type, bytes, Tokens.alice()), type);
            invalid().head("/api/v1/blobs/{digest}", digest).then().statusCode(404);
        }
    }

    @Test
    void otherTypesAreStillTaken() throws Exception {
        for (String type : List.of("application/octet-stream", "application/json", "image/png")) {
            assertEquals(201, send("POST", "/api/v1/blobs", type, Evidence.uniqueBytes(64), Tokens.alice())
                    .statusCode(), type);
        }
    }

    @Test
    void aCheckpointIsNotSignedForAFormPost() throws Exception {
        for (String type : FORM_TYPES) {
            refused(send("POST", "/api/v1/audit/checkpoints", type, "note=x".getBytes(), Tokens.bob()), type);
        }
        // an empty POST is no form, whatever type the client's library puts on it
        assertEquals(201, send("POST", "/api/v1/audit/checkpoints", FORM_TYPES.get(0), new byte[0], Tokens.bob())
                .statusCode());
    }

    private static void refused(HttpResponse<String> response, String type) throws IOException {
        assertEquals(415, response.statusCode(), type + ": " + response.body());
        assertEquals("application/problem+json", response.headers().firstValue("Content-Type").orElseThrow());
        JsonNode problem = JSON.readTree(response.body());
        assertEquals("https://evidence-store.dev/problems/unsupported-media-type", problem.path("type").asText());
        assertEquals("a body of type " + type.split(";")[0].strip().toLowerCase(Locale.ROOT) + " is what a form on any"
                + " site can make a browser send; send application/octet-stream, or no body",
                problem.path("detail").asText());
    }

    private static HttpResponse<String> send(String method, String path, String type, byte[] body, String token)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                .method(method, HttpRequest.BodyPublishers.ofByteArray(body))
                .header("Content-Type", type).header("Authorization", "Bearer " + token).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
