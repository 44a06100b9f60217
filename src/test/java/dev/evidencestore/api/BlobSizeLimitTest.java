package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@TestProfile(Profiles.RotatedKeyAndSmallBlobs.class)
class BlobSizeLimitTest {

    @Test
    void refusesBlobsOverTheLimitAndStoresNothing() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(1025);
        String digest = Evidence.digestOf(bytes);
        problem(invalid().contentType(ContentType.BINARY).body(bytes).put("/api/v1/blobs/{digest}", digest).then(),
                413, "blob-too-large").body("maxSize", equalTo(1024));
        problem(invalid().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then(), 413, "blob-too-large");
        // without Content-Length the limit is enforced while streaming
        problem(invalid().contentType(ContentType.BINARY).body(new ByteArrayInputStream(bytes)).post("/api/v1/blobs")
                .then(), 413, "blob-too-large");
        assertEquals(0, Sql.count("SELECT count(*) FROM blob WHERE digest = ?", digest));
        assertEquals(0, Sql.count("SELECT count(*) FROM blob_content WHERE digest = ?", digest));
        byte[] atLimit = Evidence.uniqueBytes(1024);
        api().contentType(ContentType.BINARY).body(atLimit).post("/api/v1/blobs").then().statusCode(201)
                .body("size", equalTo(1024));
    }
}
