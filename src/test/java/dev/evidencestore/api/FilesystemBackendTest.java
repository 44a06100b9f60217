package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The API on the filesystem backend: bytes land as files, and changes to them are caught. */
@QuarkusTest
@TestProfile(FilesystemBackendTest.Filesystem.class)
class FilesystemBackendTest {

    public static class Filesystem implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("evidence.storage.backend", "filesystem");
        }
    }

    private static Path fileOf(String digest) {
        String hex = digest.substring("sha256:".length());
        return TestDatabase.BLOB_DIR.resolve("sha256").resolve(hex.substring(0, 2)).resolve(hex);
    }

    @Test
    void storesServesAndVerifiesFiles() {
        byte[] bytes = Evidence.uniqueBytes(70_000);
        String id = Fixtures.storedArtifact("demo", "grafana-checkout", bytes);
        String digest = Evidence.digestOf(bytes);
        assertTrue(Files.isRegularFile(fileOf(digest)));
        assertArrayEquals(bytes, api().get("/api/v1/artifacts/{id}/content", id).then().statusCode(200)
                .extract().asByteArray());
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", id).then().statusCode(201).body("verified", equalTo(true));
    }

    @Test
    void detectsFilesChangedOrRemovedBehindTheServicesBack() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(1000);
        String id = Fixtures.storedArtifact("demo", "kubernetes-workers", bytes);
        String digest = Evidence.digestOf(bytes);
        Path file = fileOf(digest);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        bytes[10] ^= 1;
        Files.write(file, bytes);
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", id).then().statusCode(201)
                .body("recordedDigest", equalTo(digest))
                .body("computedDigest", equalTo(Evidence.digestOf(bytes)))
                .body("verified", equalTo(false));
        Files.delete(file);
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", id).then().statusCode(201)
                .body("computedDigest", nullValue())
                .body("verified", equalTo(false));
        api().get("/api/v1/artifacts/{id}", id).then().statusCode(200).body("digest", equalTo(digest))
                .body("digest", not(equalTo(Evidence.digestOf(bytes))));
    }
}
