package dev.evidencestore.http;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Plain HTTP is answered in HTTP/1.1 whatever the client asks for ({@link NoClearTextHttp2}): an upgraded connection
 * would lose the stalled-transfer watch that every connection starts with.
 */
@QuarkusTest
class NoClearTextHttp2Test {

    @Test
    void anUpgradeToH2cIsAnsweredInHttp11() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET /q/health/live HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n"
                    + "\r\n").getBytes(StandardCharsets.US_ASCII));
            assertEquals("HTTP/1.1 200 OK", statusLine(socket.getInputStream()));
        }
    }

    @Test
    void theJdkClientThatPrefersHttp2GetsHttp11() throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + RestAssured.port + "/q/health/live")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertEquals(HttpClient.Version.HTTP_1_1, response.version());
    }

    /** The connection preface of HTTP/2 is read as an HTTP/1 request for {@code *}, which is refused. */
    @Test
    void http2WithPriorKnowledgeIsNotSpoken() throws IOException {
        try (Socket socket = new Socket("127.0.0.1", RestAssured.port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            String problem = "{\"type\":\"https://evidence-store.dev/problems/malformed-request\",\"title\":\"The request "
                    + "is not well-formed HTTP\",\"status\":400,\"detail\":\"the request could not be routed; nothing was done\"}";
            assertEquals("HTTP/2.0 400 Bad Request\r\ncontent-type: application/problem+json\r\ncontent-length: "
                    + problem.length() + "\r\n\r\n" + problem, answer);
        }
    }

    private static String statusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b >= 0 && b != '\r'; b = in.read()) {
            line.append((char) b);
        }
        return line.toString();
    }
}
