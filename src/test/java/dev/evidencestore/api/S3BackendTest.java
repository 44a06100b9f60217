package dev.evidencestore.api;

import dev.evidencestore.support.Damage;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.S3ProxyServer;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.S3ProxyServer.BUCKET;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The API on the s3 backend, against S3Proxy: bytes land as objects under their digest, and changes to them are caught. */
@QuarkusTest
@TestProfile(Profiles.OnS3.class)
class S3BackendTest {

    static final int PART = 5 * 1024 * 1024;
    static final String PREFIX = Profiles.S3_PREFIX;

    private static S3Client s3;

    @BeforeAll
    static void connect() {
        s3 = S3ProxyServer.clientBuilder(ConfigProvider.getConfig().getValue("evidence.storage.s3.endpoint", URI.class))
                .build();
    }

    @AfterAll
    static void disconnect() {
        s3.close();
    }

    private static String keyOf(String digest) {
        String hex = digest.substring("sha256:".length());
        return PREFIX + "sha256/" + hex.substring(0, 2) + "/" + hex;
    }

    @Test
    void storesServesRangesOfAndVerifiesObjects() {
        byte[] bytes = Evidence.uniqueBytes(70_000);
        String id = Fixtures.storedArtifact("demo", "grafana-checkout", bytes);
        String digest = Evidence.digestOf(bytes);
        assertEquals(bytes.length, s3.headObject(b -> b.bucket(BUCKET).key(keyOf(digest))).contentLength());
        assertArrayEquals(bytes, api().get("/api/v1/artifacts/{id}/content", id).then().statusCode(200)
                .extract().asByteArray());
        assertArrayEquals(Arrays.copyOfRange(bytes, 1000, 2000), api().header("Range", "bytes=1000-1999")
                .get("/api/v1/artifacts/{id}/content", id).then().statusCode(206)
                .header("Content-Range", "bytes 1000-1999/70000").extract().asByteArray());
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", id).then().statusCode(201)
                .body("verified", equalTo(true));
    }

    @Test
    void streamsAnUploadLargerThanAPartThroughAMultipartUpload() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(PART + 54_321);
        String digest = Evidence.digestOf(bytes);
        // a streaming client, chunked and without a length: RestAssured would buffer the body and check it as text
        HttpRequest upload = HttpRequest.newBuilder(URI.create(RestAssured.baseURI + ":" + RestAssured.port
                        + "/api/v1/blobs"))
                .header("Authorization", "Bearer " + Tokens.alice())
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes))).build();
        HttpResponse<String> created = HttpClient.newHttpClient().send(upload, HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode(), created.body());
        assertEquals(bytes.length, s3.headObject(b -> b.bucket(BUCKET).key(keyOf(digest))).contentLength());
        assertEquals(List.of(), s3.listMultipartUploads(b -> b.bucket(BUCKET).prefix(PREFIX)).uploads());
        assertEquals(List.of(), s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(PREFIX + "uploads/")).contents());
        String across = "bytes=" + (PART - 100) + "-" + (PART + 99);
        assertArrayEquals(Arrays.copyOfRange(bytes, PART - 100, PART + 100), api().header("Range", across)
                .get("/api/v1/blobs/{digest}", digest).then().statusCode(206).extract().asByteArray());
        assertArrayEquals(bytes, api().get("/api/v1/blobs/{digest}", digest).then().statusCode(200)
                .extract().asByteArray());
    }

    /**
     * A download past 1 MiB is fetched a block ahead of its hashing, on another thread: the bytes arrive whole and in
     * order, and damage in the last block ends the transfer before the bytes that show it, and is recorded.
     */
    @Test
    void aLargeDownloadServesTheBytesAndCutsDamageInItsLastBlockShort() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(3 * 1024 * 1024 + 17);
        String id = Fixtures.storedArtifact("demo", "github-deployment", bytes);
        String digest = Evidence.digestOf(bytes);
        assertArrayEquals(bytes, api().get("/api/v1/artifacts/{id}/content", id).then().statusCode(200)
                .header("Repr-Digest", Evidence.digestField(bytes)).extract().asByteArray());

        byte[] damaged = Damage.flipped(bytes, bytes.length - 100);
        s3.putObject(b -> b.bucket(BUCKET).key(keyOf(digest)), RequestBody.fromBytes(damaged));
        Damage.assertCutShort("/api/v1/artifacts/" + id + "/content");

        assertEquals(1, Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged "
                + "AND computed_digest = ?", digest, Evidence.digestOf(damaged)));
    }

    @Test
    void detectsObjectsChangedOrRemovedBehindTheServicesBack() {
        byte[] bytes = Evidence.uniqueBytes(1000);
        String id = Fixtures.storedArtifact("demo", "kubernetes-workers", bytes);
        String digest = Evidence.digestOf(bytes);
        bytes[10] ^= 1;
        s3.putObject(b -> b.bucket(BUCKET).key(keyOf(digest)), RequestBody.fromBytes(bytes));
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", id).then().statusCode(201)
                .body("recordedDigest", equalTo(digest))
                .body("computedDigest", equalTo(Evidence.digestOf(bytes)))
                .body("verified", equalTo(false));
        s3.deleteObject(b -> b.bucket(BUCKET).key(keyOf(digest)));
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", id).then().statusCode(201)
                .body("computedDigest", nullValue())
                .body("verified", equalTo(false));
    }
}
