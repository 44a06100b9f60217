package dev.evidencestore.persistence;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.sql.SQLException;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.incident;
import static dev.evidencestore.support.Api.json;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The database itself refuses to change or remove evidence, whatever the code above it does. */
@QuarkusTest
class WriteOnceSchemaTest {

    private static boolean seeded;

    @BeforeEach
    void someEvidence() {
        if (seeded) {
            return;
        }
        seeded = true;
        String key = Evidence.uniqueKey();
        json(incident(key)).post("/api/v1/workspaces/demo/incidents").then().statusCode(201);
        String digest = api().contentType(ContentType.BINARY).body(Evidence.uniqueBytes(10)).post("/api/v1/blobs")
                .then().statusCode(201).extract().path("digest");
        Map<String, Object> artifact = Map.of("name", "panel", "digest", digest, "mediaType", "image/png",
                "source", "grafana", "kind", "snapshot", "capturedAt", "2026-06-18T10:20:00Z");
        String id = json(artifact).post("/api/v1/workspaces/demo/incidents/{key}/artifacts", key)
                .then().statusCode(201).extract().path("id");
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", id).then().statusCode(201);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "UPDATE blob SET size = size + 1",
        "DELETE FROM blob",
        "TRUNCATE blob CASCADE",
        "UPDATE artifact SET digest = digest",
        "UPDATE artifact SET description = 'rewritten'",
        "DELETE FROM artifact",
        "TRUNCATE artifact CASCADE",
        "UPDATE verification SET verified = true",
        "DELETE FROM verification",
        "TRUNCATE verification",
        "UPDATE blob_content SET size = 0",
        "DELETE FROM blob_content",
        "TRUNCATE blob_content",
        "UPDATE blob_chunk SET data = ''::bytea",
        "DELETE FROM blob_chunk",
        "TRUNCATE blob_chunk",
        "UPDATE incident SET incident_key = 'X-1'",
        "UPDATE incident SET workspace = 'elsewhere'",
        "DELETE FROM incident",
        "TRUNCATE incident CASCADE"
    })
    void refusesChangesToEvidence(String statement) {
        SQLException refused = assertThrows(SQLException.class, () -> Sql.update(statement));
        assertThat(refused.getMessage(), anyOf(containsString("evidence is write-once"),
                containsString("identity is permanent")));
    }
}
