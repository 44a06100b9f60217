package dev.evidencestore.api;

import dev.evidencestore.support.Concurrently;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.emptyString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
class BlobApiTest {

    private static final String BLOBS = "/api/v1/blobs";
    private static final String BLOB = "/api/v1/blobs/{digest}";
    private static final String EMPTY = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    private static String reprDigest(byte[] bytes) {
        return "sha-256=:" + Base64.getEncoder().encodeToString(DigestUtils.sha256(bytes)) + ":";
    }

    @Test
    void putStoresBytesUnderTheDeclaredDigestOnce() {
        byte[] bytes = Evidence.uniqueBytes(3000);
        String digest = Evidence.digestOf(bytes);
        api().contentType(ContentType.BINARY).body(bytes).put(BLOB, digest).then().statusCode(201)
                .header("Location", endsWith("/api/v1/blobs/" + digest))
                .body("digest", equalTo(digest)).body("size", equalTo(3000));
        api().contentType(ContentType.BINARY).body(bytes).put(BLOB, digest).then().statusCode(200)
                .header("Location", endsWith("/api/v1/blobs/" + digest))
                .body("digest", equalTo(digest)).body("size", equalTo(3000));
    }

    @Test
    void postComputesTheDigest() {
        byte[] bytes = Evidence.uniqueBytes(100);
        String digest = Evidence.digestOf(bytes);
        api().contentType(ContentType.BINARY).body(bytes).post(BLOBS).then().statusCode(201)
                .header("Location", endsWith("/api/v1/blobs/" + digest))
                .body("digest", equalTo(digest)).body("size", equalTo(100));
        api().contentType("image/png").body(bytes).post(BLOBS).then().statusCode(200).body("digest", equalTo(digest));
    }

    @Test
    void refusesBytesThatDisagreeWithTheUrlAndStoresNothing() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(5000);
        String claimed = Evidence.digestOf(Evidence.uniqueBytes(10));
        problem(invalid().contentType(ContentType.BINARY).body(bytes).put(BLOB, claimed).then(), 400, "digest-mismatch")
                .body("declaredDigest", equalTo(claimed))
                .body("computedDigest", equalTo(Evidence.digestOf(bytes)));
        problem(invalid().get(BLOB, Evidence.digestOf(bytes)).then(), 404, "not-found");
        problem(invalid().get(BLOB, claimed).then(), 404, "not-found");
        assertEquals(0, Sql.count("SELECT count(*) FROM blob WHERE digest IN (?, ?)", claimed, Evidence.digestOf(bytes)));
    }

    @Test
    void checksContentDigestToo() {
        byte[] bytes = Evidence.uniqueBytes(700);
        String digest = Evidence.digestOf(bytes);
        String wrong = reprDigest(Evidence.uniqueBytes(7));
        problem(invalid().contentType(ContentType.BINARY).header("Content-Digest", wrong).body(bytes).put(BLOB, digest)
                .then(), 400, "digest-mismatch");
        problem(invalid().contentType(ContentType.BINARY).header("Content-Digest", wrong).body(bytes).post(BLOBS)
                .then(), 400, "digest-mismatch");
        problem(invalid().contentType(ContentType.BINARY).header("Content-Digest", "sha-256=abc").body(bytes)
                .post(BLOBS).then(), 400, "invalid-request").body("errors[0].field", equalTo("Content-Digest"));
        problem(invalid().contentType(ContentType.BINARY).header("Content-Digest", "sha-256=:AAAA:").body(bytes)
                .post(BLOBS).then(), 400, "invalid-request");
        api().contentType(ContentType.BINARY)
                .header("Content-Digest", "sha-512=:" + Base64.getEncoder().encodeToString(DigestUtils.sha512(bytes))
                        + ":, " + reprDigest(bytes))
                .body(bytes).put(BLOB, digest).then().statusCode(201).body("digest", equalTo(digest));
    }

    @Test
    void servesExactBytesWithDigestHeaders() {
        byte[] bytes = Evidence.uniqueBytes(4321);
        String digest = Fixtures.upload(bytes);
        byte[] served = api().get(BLOB, digest).then().statusCode(200)
                .contentType("application/octet-stream")
                .header("Content-Length", "4321")
                .header("ETag", "\"" + digest + "\"")
                .header("Repr-Digest", reprDigest(bytes))
                .header("Accept-Ranges", "bytes")
                .header("Cache-Control", "private, max-age=31536000, immutable")
                .header("X-Content-Type-Options", "nosniff")
                .header("Content-Security-Policy", "sandbox; default-src 'none'")
                .extract().asByteArray();
        assertArrayEquals(bytes, served);
        api().head(BLOB, digest).then().statusCode(200)
                .header("Content-Length", "4321")
                .header("ETag", "\"" + digest + "\"")
                .header("Repr-Digest", reprDigest(bytes))
                .body(emptyString());
    }

    @Test
    void answersConditionalRequestsWithNotModified() {
        byte[] bytes = Evidence.uniqueBytes(64);
        String digest = Fixtures.upload(bytes);
        api().header("If-None-Match", "\"" + digest + "\"").get(BLOB, digest).then().statusCode(304)
                .header("ETag", "\"" + digest + "\"").body(emptyString());
        api().header("If-None-Match", "\"sha256:other\", W/\"" + digest + "\"").get(BLOB, digest).then().statusCode(304);
        api().header("If-None-Match", "*").head(BLOB, digest).then().statusCode(304);
        api().header("If-None-Match", "\"sha256:other\"").get(BLOB, digest).then().statusCode(200);
    }

    @Test
    void servesSingleByteRanges() {
        byte[] bytes = Evidence.uniqueBytes(1000);
        String digest = Fixtures.upload(bytes);
        assertRange(digest, "bytes=10-19", bytes, 10, 19);
        assertRange(digest, "bytes=990-", bytes, 990, 999);
        assertRange(digest, "bytes=-5", bytes, 995, 999);
        assertRange(digest, "bytes=900-5000", bytes, 900, 999);
        assertRange(digest, "bytes=-5000", bytes, 0, 999);
        api().header("Range", "bytes=10-19").head(BLOB, digest).then().statusCode(206)
                .header("Content-Range", "bytes 10-19/1000").header("Content-Length", "10");
    }

    private static void assertRange(String digest, String range, byte[] bytes, int first, int last) {
        byte[] part = api().header("Range", range).get(BLOB, digest).then().statusCode(206)
                .header("Content-Range", "bytes " + first + "-" + last + "/" + bytes.length)
                .header("Content-Length", String.valueOf(last - first + 1))
                .header("Repr-Digest", reprDigest(bytes))
                .extract().asByteArray();
        assertArrayEquals(Arrays.copyOfRange(bytes, first, last + 1), part, range);
    }

    @Test
    void refusesUnsatisfiableRangesAndIgnoresOthers() {
        byte[] bytes = Evidence.uniqueBytes(100);
        String digest = Fixtures.upload(bytes);
        problem(invalid().header("Range", "bytes=100-").get(BLOB, digest).then(), 416, "range-not-satisfiable")
                .header("Content-Range", "bytes */100");
        problem(invalid().header("Range", "bytes=-0").get(BLOB, digest).then(), 416, "range-not-satisfiable");
        for (String ignored : List.of("bytes=0-1,5-6", "items=0-1", "bytes=5-1", "bytes=x-y")) {
            assertArrayEquals(bytes, api().header("Range", ignored).get(BLOB, digest).then().statusCode(200)
                    .extract().asByteArray(), ignored);
        }
        api().header("Range", "bytes=0-9").header("If-Range", "\"sha256:stale\"").get(BLOB, digest).then()
                .statusCode(200).header("Content-Length", "100");
        api().header("Range", "bytes=0-9").header("If-Range", "\"" + digest + "\"").get(BLOB, digest).then()
                .statusCode(206);
    }

    @Test
    void storesAndServesTheEmptyBlob() {
        api().contentType(ContentType.BINARY).body(new byte[0]).put(BLOB, EMPTY).then()
                .statusCode(org.hamcrest.Matchers.oneOf(200, 201)).body("size", equalTo(0));
        // the validator cannot tell an empty body from a missing one, so this read goes unchecked
        RestAssured.given().auth().oauth2(Tokens.alice()).get(BLOB, EMPTY).then().statusCode(200).header("Content-Length", "0").body(emptyString());
        problem(invalid().header("Range", "bytes=0-").get(BLOB, EMPTY).then(), 416, "range-not-satisfiable");
    }

    @Test
    void refusesMalformedDigests() {
        String hex = DigestUtils.sha256Hex("x");
        List<String> malformed = List.of("sha256:" + hex.toUpperCase(), "sha256:" + hex.substring(1),
                "sha256:" + hex + "0", "sha512:" + DigestUtils.sha512Hex("x"), "md5:" + DigestUtils.md5Hex("x"),
                hex, "sha256:..%2F..%2Fetc%2Fpasswd", "..%2F..%2Fetc%2Fpasswd", "sha256:" + hex.substring(2) + "%2F.");
        for (String digest : malformed) {
            problem(invalid().urlEncodingEnabled(false).get("/api/v1/blobs/" + digest).then(), 400, "invalid-request");
            problem(invalid().urlEncodingEnabled(false).contentType(ContentType.BINARY).body(new byte[] {1})
                    .put("/api/v1/blobs/" + digest).then(), 400, "invalid-request");
        }
    }

    @Test
    void answersNotFoundForUnknownBlobs() {
        problem(invalid().get(BLOB, Evidence.digestOf(Evidence.uniqueBytes(8))).then(), 404, "not-found");
        api().head(BLOB, Evidence.digestOf(Evidence.uniqueBytes(8))).then().statusCode(404);
    }

    @Test
    void anUploadTheClientAbandonsIsRecordedAsInterruptedAndStoresNothing() throws Exception {
        long blobsBefore = Sql.count("SELECT count(*) FROM blob");
        long auditBefore = Sql.count("SELECT count(*) FROM audit_entry WHERE problem = 'upload-interrupted'");
        try (Socket client = new Socket("localhost", RestAssured.port)) {
            OutputStream out = client.getOutputStream();
            out.write(("POST /api/v1/blobs HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + Tokens.alice()
                    + "\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000000\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(Evidence.uniqueBytes(300_000));
            out.flush();
            Thread.sleep(300);
        }
        long interrupted = auditBefore;
        for (int attempt = 0; attempt < 50 && interrupted == auditBefore; attempt++) {
            Thread.sleep(100);
            interrupted = Sql.count("SELECT count(*) FROM audit_entry WHERE problem = 'upload-interrupted'");
        }
        assertEquals(auditBefore + 1, interrupted);
        assertEquals(blobsBefore, Sql.count("SELECT count(*) FROM blob"));
    }

    @Test
    void storesTwentyConcurrentUploadsOfTheSameBytesOnce() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(300_000);
        String digest = Evidence.digestOf(bytes);
        List<Callable<Integer>> uploads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            boolean put = i % 2 == 0;
            uploads.add(() -> {
                var request = api().contentType(ContentType.BINARY).body(bytes);
                var response = put ? request.put(BLOB, digest) : request.post(BLOBS);
                response.then().body("digest", equalTo(digest)).body("size", equalTo(300_000));
                return response.statusCode();
            });
        }
        List<Integer> statuses = Concurrently.run(uploads);
        assertEquals(1, statuses.stream().filter(s -> s == 201).count(), statuses.toString());
        assertEquals(19, statuses.stream().filter(s -> s == 200).count(), statuses.toString());
        assertEquals(1, Sql.count("SELECT count(*) FROM blob WHERE digest = ?", digest));
        assertEquals(1, Sql.count("SELECT count(*) FROM blob_content WHERE digest = ?", digest));
        assertArrayEquals(bytes, api().get(BLOB, digest).then().statusCode(200).extract().asByteArray());
    }
}
