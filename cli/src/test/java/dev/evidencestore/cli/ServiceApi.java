package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/** Raw HTTP for what the CLI does not do (incidents, findings, reviews): the test's own setup, not the CLI under test. */
final class ServiceApi {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final PackagedService service;
    private final String token;

    ServiceApi(PackagedService service, String token) {
        this.service = service;
        this.token = token;
    }

    /** A new incident with a key no other test uses. */
    static String newIncidentKey() {
        return "INC-" + (100_000 + Math.abs(UUID.randomUUID().getLeastSignificantBits() % 899_999_999L));
    }

    String createIncident(String workspace, String key) {
        post("/api/v1/workspaces/" + workspace + "/incidents", "{\"key\":\"" + key + "\",\"title\":\"CLI test\","
                + "\"severity\":\"SEV-3\",\"status\":\"investigating\",\"services\":[\"checkout\"],\"regions\":[\"eu\"],"
                + "\"impactStart\":\"2026-06-18T09:00:00Z\",\"commander\":\"Ivo\",\"responders\":[],"
                + "\"reviewOwner\":\"Timo\"}", 201);
        return key;
    }

    JsonNode post(String path, String json, int expected) {
        HttpRequest request = HttpRequest.newBuilder(service.url().resolve(path))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json))
                .build();
        return expect(request, expected);
    }

    JsonNode get(String path) {
        return expect(HttpRequest.newBuilder(service.url().resolve(path)).header("Authorization", "Bearer " + token)
                .build(), 200);
    }

    byte[] getBytes(String path) {
        try {
            HttpResponse<byte[]> response = HTTP.send(HttpRequest.newBuilder(service.url().resolve(path))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new AssertionError("GET " + path + " answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static JsonNode expect(HttpRequest request, int expected) {
        try {
            HttpResponse<String> response = HTTP.send(request,
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() != expected) {
                throw new AssertionError(request.method() + " " + request.uri() + " answered " + response.statusCode()
                        + ", not " + expected + ": " + response.body());
            }
            return Json.readOrNull(response.body());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
