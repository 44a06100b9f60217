package dev.evidencestore.cli;

import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One request to the service, as it is sent again on each attempt: its body is made afresh each time (a file is read
 * from its start again), and its headers, the {@code Idempotency-Key} among them, stay the same.
 */
final class Call {

    final String method;
    final String path;
    final Map<String, String> headers = new LinkedHashMap<>();
    Supplier<HttpRequest.BodyPublisher> body = HttpRequest.BodyPublishers::noBody;
    Duration timeout = Duration.ofMinutes(2);
    boolean authorized = true;

    private Call(String method, String path) {
        this.method = method;
        this.path = path;
    }

    static Call get(String path) {
        return new Call("GET", path);
    }

    static Call post(String path) {
        return new Call("POST", path);
    }

    static Call put(String path) {
        return new Call("PUT", path);
    }

    Call header(String name, String value) {
        headers.put(name, value);
        return this;
    }

    /** A write: the key goes with every attempt, so the service does it once however often it is sent. */
    Call idempotent(IdempotencyKey key) {
        return header("Idempotency-Key", key.header());
    }

    Call json(String text) {
        header("Content-Type", "application/json");
        body = () -> HttpRequest.BodyPublishers.ofString(text);
        return this;
    }

    Call body(String contentType, Supplier<HttpRequest.BodyPublisher> publisher) {
        header("Content-Type", contentType);
        body = publisher;
        return this;
    }

    Call timeout(Duration limit) {
        timeout = limit;
        return this;
    }

    /** Sent without the token: the transparency log's reads need none, and a witness should not need one either. */
    Call anonymous() {
        authorized = false;
        return this;
    }

    @Override
    public String toString() {
        return method + " " + path;
    }
}
