package dev.evidencestore.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A local HTTP server standing in for a source's API (Grafana, GitHub) or for the evidence service itself, answering
 * each route (method, path and query, and the Accept header when it matters) with what the real API's documentation
 * shows, and keeping every request it got.
 */
final class FakeSource implements AutoCloseable {

    record Request(String method, String target, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            return headers.entrySet().stream().filter(entry -> entry.getKey().equalsIgnoreCase(name))
                    .map(entry -> entry.getValue().get(0)).findFirst().orElse(null);
        }

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    record Reply(int status, String contentType, byte[] body) {
        static Reply json(String body) {
            return new Reply(200, "application/json", body.getBytes(StandardCharsets.UTF_8));
        }

        static Reply text(String contentType, String body) {
            return new Reply(200, contentType, body.getBytes(StandardCharsets.UTF_8));
        }
    }

    private final HttpServer server;
    private final Map<String, Function<Request, Reply>> routes = new ConcurrentHashMap<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeSource() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /**
     * Answers {@code method target} (target: path and query as sent), for any Accept unless one is given; an answer
     * of null drops the connection without a byte.
     */
    FakeSource on(String method, String target, Function<Request, Reply> reply) {
        routes.put(method + " " + target, reply);
        return this;
    }

    FakeSource on(String method, String target, String accept, Function<Request, Reply> reply) {
        routes.put(method + " " + target + " " + accept, reply);
        return this;
    }

    private void handle(HttpExchange exchange) throws IOException {
        Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
                Map.copyOf(exchange.getRequestHeaders()), exchange.getRequestBody().readAllBytes());
        requests.add(request);
        String key = request.method() + " " + request.target();
        Function<Request, Reply> route = routes.getOrDefault(key + " " + request.header("Accept"), routes.get(key));
        Reply reply = route == null ? new Reply(404, "application/json",
                "{\"message\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8)) : route.apply(request);
        if (reply == null) {
            // no answer at all: the connection is dropped, as by a proxy or a dying instance
            exchange.close();
            return;
        }
        exchange.getResponseHeaders().set("Content-Type", reply.contentType());
        exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1 : reply.body().length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(reply.body());
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
