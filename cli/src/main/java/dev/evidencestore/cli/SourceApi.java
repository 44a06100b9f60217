package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The HTTP API of a source evidence is captured from (Grafana, GitHub): reads with an optional bearer token. A source
 * that fails is not the evidence service refusing: nothing is pushed, and the message suggests recording the gap
 * with {@code evidence unavailable}.
 */
final class SourceApi {

    private final String source;
    private final URI base;
    private final Optional<String> token;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NORMAL).build();

    SourceApi(String source, String base, Optional<String> token) {
        this.source = source;
        this.base = Session.baseUrl(base);
        this.token = token;
    }

    SourceApi header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    URI base() {
        return base;
    }

    JsonNode getJson(String path) {
        return Json.read(send(path, "application/json", null));
    }

    JsonNode postJson(String path, JsonNode body) {
        return Json.read(send(path, "application/json", Json.write(body)));
    }

    String getText(String path, String accept) {
        return send(path, accept, null);
    }

    private String send(String path, String accept, String jsonBody) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(2))
                .header("Accept", accept).header("User-Agent", ServiceClient.USER_AGENT);
        headers.forEach(request::header);
        token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(jsonBody));
        }
        String what = (jsonBody == null ? "GET " : "POST ") + base.resolve(path);
        try {
            HttpResponse<String> response = http.send(request.build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            if (response.statusCode() >= 300) {
                throw unreachable(what + " answered " + response.statusCode() + ": " + abbreviate(response.body()));
            }
            return response.body();
        } catch (IOException e) {
            throw unreachable(what + " failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(what + " was interrupted");
        }
    }

    private CommandFailure unreachable(String detail) {
        return new CommandFailure(ExitCodes.UNAVAILABLE, source + ": " + detail + "; nothing was pushed. To record"
                + " the gap: evidence unavailable --source " + source + " --reason '…' --incident KEY");
    }

    private static String abbreviate(String text) {
        String line = text == null ? "" : text.strip().replaceAll("\\s+", " ");
        return line.length() > 200 ? line.substring(0, 200) + "…" : line;
    }

    /** A token from a file, else from an environment variable. */
    static Optional<String> token(Path file, Invocation invocation, String variable) {
        if (file != null) {
            try {
                return Optional.of(Files.readString(file).strip());
            } catch (IOException e) {
                throw CommandFailure.usage("cannot read the token file " + file + ": " + e.getMessage());
            }
        }
        return invocation.variable(variable).map(String::strip);
    }
}
