package dev.evidencestore.api;

import dev.evidencestore.support.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** With every request slot taken, the next request is turned away at once; health still answers. */
@QuarkusTest
@TestProfile(AdmissionControlTest.OneRequestAtATime.class)
class AdmissionControlTest {

    @Inject
    AdmissionControl admission;

    /** This application's own address; RestAssured's statics may still name another test's server. */
    @TestHTTPResource("/api/v1/blobs")
    URI blobs;

    public static class OneRequestAtATime implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.http.max-concurrent-requests", "1");
        }
    }

    private static String describe(Future<Integer> held) {
        if (!held.isDone()) {
            return "still running";
        }
        try {
            return "answered " + held.get();
        } catch (Exception e) {
            return "failed: " + e;
        }
    }

    @Test
    void aRequestBeyondTheBoundGets503WithRetryAfterAndHealthStillAnswers() throws Exception {
        PipedOutputStream slowClient = new PipedOutputStream();
        PipedInputStream body = new PipedInputStream(slowClient, 64 * 1024);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            HttpRequest slowUpload = HttpRequest.newBuilder(blobs)
                    .header("Authorization", "Bearer " + Tokens.alice())
                    .header("Content-Type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> body)).build();
            // HTTP/1.1: an h2c upgrade request is read whole before it is dispatched, which would never happen here;
            // no proxy: a browser test earlier in the run may have left proxy settings in the JVM
            Future<Integer> held = pool.submit(() -> HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .proxy(HttpClient.Builder.NO_PROXY).build()
                    .send(slowUpload, HttpResponse.BodyHandlers.discarding()).statusCode());
            slowClient.write(new byte[16 * 1024]);
            slowClient.flush();
            for (int waited = 0; admission.inProgress() == 0 && waited < 300; waited++) {
                Thread.sleep(100);
            }
            assertEquals(1, admission.inProgress(), () -> "the upload was not admitted: " + describe(held));
            problem(invalid().get("/api/v1/workspaces/demo/incidents").then(), 503, "service-busy")
                    .header("Retry-After", "1")
                    .body("retryAfterSeconds", equalTo(1));
            RestAssured.given().get("/q/health/live").then().statusCode(200);

            slowClient.close();
            assertEquals(201, held.get(30, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        api().get("/api/v1/workspaces/demo/incidents").then().statusCode(200);
    }
}
