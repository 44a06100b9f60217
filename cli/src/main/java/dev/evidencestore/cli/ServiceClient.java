package dev.evidencestore.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The service's HTTP API with retries: a timeout, a dropped connection, 502, 503 and 504 are tried again after a
 * jittered backoff (at least the {@code Retry-After} the service sent), and an {@code idempotency-key-in-flight}
 * after its {@code Retry-After}; another 4xx is a {@link ServiceRefusal} at once; giving up is
 * {@link ServiceUnavailable}. Writes are safe
 * to send again because each {@link Call} carries its one {@code Idempotency-Key} on every attempt.
 */
final class ServiceClient {

    static final String USER_AGENT = Version.COLLECTOR.replace(' ', '/');
    static final String IN_FLIGHT = "idempotency-key-in-flight";
    /** The service's evidence.idempotency.abandoned-after (2 min), and some. */
    static final Duration IN_FLIGHT_PATIENCE = Duration.ofSeconds(150);

    private final URI base;
    private final Optional<String> token;
    private final Backoff backoff;
    private final PrintStream notices;
    private final HttpClient http;

    ServiceClient(URI base, Optional<String> token, Backoff backoff, PrintStream notices) {
        this.base = base;
        this.token = token;
        this.backoff = backoff;
        this.notices = notices;
        // HTTP/1.1: no h2c upgrade dance on plain http, and one request per connection in flight is what the
        // service's admission control counts
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    URI base() {
        return base;
    }

    Answer<String> send(Call call) {
        return send(call, BodyReader.text());
    }

    <T> Answer<T> send(Call call, BodyReader<T> reader) {
        String lastFailure = "no attempt made";
        int failures = 0;
        Instant patience = null;
        while (true) {
            Duration retryAfter = Duration.ZERO;
            try {
                HttpResponse<InputStream> response = http.send(request(call),
                        HttpResponse.BodyHandlers.ofInputStream());
                try (InputStream body = response.body()) {
                    int status = response.statusCode();
                    if (status < 400) {
                        return new Answer<>(status, response.headers(), reader.read(body));
                    }
                    Problem problem = Problem.of(status, new String(body.readAllBytes(), StandardCharsets.UTF_8));
                    retryAfter = retryAfter(response.headers());
                    if (problem.is(IN_FLIGHT) && problem.status() == 409) {
                        patience = awaitEarlierAttempt(call, patience, retryAfter);
                        continue;
                    }
                    if (!retryable(problem)) {
                        throw refusalOrFailure(call, problem);
                    }
                    lastFailure = problem.toString();
                }
            } catch (HttpTimeoutException e) {
                lastFailure = "timed out after " + call.timeout.toSeconds() + " s";
            } catch (IOException e) {
                lastFailure = "the connection failed (" + describe(e) + ")";
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServiceUnavailable(call + ": interrupted");
            }
            failures++;
            if (failures >= backoff.attempts()) {
                throw new ServiceUnavailable(call + " failed " + failures + " times; the last: " + lastFailure);
            }
            pause(call, failures, lastFailure, backoff.delay(failures, retryAfter));
        }
    }

    /**
     * Our own earlier attempt still holds the key: the service is still running it, or has not yet noticed that its
     * connection went. It releases the key when it does, or after {@code evidence.idempotency.abandoned-after} (2 min)
     * at most, so waiting for it is the safe course; these waits do not count as failed attempts.
     */
    private Instant awaitEarlierAttempt(Call call, Instant patience, Duration retryAfter) {
        Instant now = Instant.now();
        if (patience == null) {
            notices.println("evidence: " + call + ": the service is still running an earlier attempt with this"
                    + " Idempotency-Key; waiting for it (at most " + IN_FLIGHT_PATIENCE.toSeconds() + " s)");
            patience = now.plus(IN_FLIGHT_PATIENCE);
        } else if (now.isAfter(patience)) {
            throw new ServiceUnavailable(call + ": an earlier attempt still held its Idempotency-Key after "
                    + IN_FLIGHT_PATIENCE.toSeconds() + " s");
        }
        sleep(call, retryAfter.isZero() ? Duration.ofSeconds(1) : retryAfter);
        return patience;
    }

    private HttpRequest request(Call call) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(call.path)).timeout(call.timeout)
                .header("User-Agent", USER_AGENT).method(call.method, call.body.get());
        call.headers.forEach(builder::header);
        if (call.authorized) {
            token.ifPresent(value -> builder.header("Authorization", "Bearer " + value));
        }
        return builder.build();
    }

    /** 503 and the gateway errors pass; everything else answered is the answer. */
    static boolean retryable(Problem problem) {
        return problem.status() == 502 || problem.status() == 503 || problem.status() == 504;
    }

    private static CommandFailure refusalOrFailure(Call call, Problem problem) {
        if (problem.status() < 500) {
            return new ServiceRefusal(problem);
        }
        // a bug or damaged evidence: sending it again would get the same answer
        return new ServiceUnavailable(call + " failed: " + problem);
    }

    private static Duration retryAfter(HttpHeaders headers) {
        return headers.firstValue("Retry-After").filter(value -> value.matches("[0-9]{1,6}"))
                .map(value -> Duration.ofSeconds(Long.parseLong(value))).orElse(Duration.ZERO);
    }

    private void pause(Call call, int attempt, String failure, Duration delay) {
        notices.printf("evidence: %s: %s; retrying in %.1f s (attempt %d of %d)%n", call, failure,
                delay.toMillis() / 1000.0, attempt + 1, backoff.attempts());
        sleep(call, delay);
    }

    private static void sleep(Call call, Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceUnavailable(call + ": interrupted");
        }
    }

    private static String describe(IOException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
    }
}
