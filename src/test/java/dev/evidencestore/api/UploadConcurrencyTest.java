package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@TestProfile(Profiles.PublicUrlAndSingleSlots.class)
class UploadConcurrencyTest {

    /** The postgres backend's chunk size, by default. */
    private static final int CHUNK = 1024 * 1024;

    /**
     * Uploads that stream past one chunk each hold a connection; beyond the limit they are turned away at once, so
     * they cannot starve the connection pool. A short upload holds none (its group's commit does), so it is served
     * all the same.
     */
    @Test
    void turnsAwayLongUploadsBeyondTheConcurrencyLimit() throws Exception {
        PipedOutputStream slowClient = new PipedOutputStream();
        PipedInputStream body = new PipedInputStream(slowClient, 64 * 1024);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            // a real streaming client: RestAssured would read the whole body before sending it
            HttpRequest slowUpload = HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port
                            + "/api/v1/blobs"))
                    .header("Authorization", "Bearer " + Tokens.alice())
                    .header("Content-Type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> body)).build();
            Future<Integer> first = pool.submit(() -> HttpClient.newHttpClient()
                    .send(slowUpload, HttpResponse.BodyHandlers.discarding()).statusCode());
            // past the first 1 MiB chunk: the upload now writes chunk rows and holds the only slot
            slowClient.write(new byte[CHUNK + 48 * 1024]);
            slowClient.flush();
            int refused = 0;
            for (int attempt = 0; attempt < 50 && refused == 0; attempt++) {
                Thread.sleep(100);
                var second = invalid().contentType(ContentType.BINARY).body(Evidence.uniqueBytes(CHUNK + 10))
                        .post("/api/v1/blobs");
                if (second.statusCode() == 503) {
                    refused = 503;
                    problem(second.then(), 503, "service-busy").header("Retry-After", "5")
                            .body("retryAfterSeconds", equalTo(5));
                }
            }
            assertEquals(503, refused);
            api().contentType(ContentType.BINARY).body(Evidence.uniqueBytes(10 * 1024)).post("/api/v1/blobs").then()
                    .statusCode(201);
            slowClient.write(new byte[100]);
            slowClient.close();
            assertEquals(201, first.get(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        api().contentType(ContentType.BINARY).body(Evidence.uniqueBytes(CHUNK + 10)).post("/api/v1/blobs").then()
                .statusCode(201);
    }
}
