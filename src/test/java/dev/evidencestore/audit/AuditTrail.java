package dev.evidencestore.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.MerkleTree;
import dev.evidencestore.verify.SubtreeHashes;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import org.apache.commons.codec.digest.DigestUtils;
import org.erdtman.jcs.JsonCanonicalizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.incident;

/**
 * Writes to audit, and the audit entries they leave, read back through the API. The writes go around the contract
 * filter: their own tests check them against the contract, and these tests are about what the audit records.
 */
final class AuditTrail {

    static final String ZERO_HASH = "sha256:" + "0".repeat(64);

    private static final ObjectMapper JSON = new ObjectMapper();

    private AuditTrail() {
    }

    /** A workspace no other test writes to, so its audit page holds only what this test did. */
    static String newWorkspace() {
        return "audit-" + Evidence.uniqueKey().toLowerCase();
    }

    /** A request as alice, who holds every role, outside the contract filter. */
    static RequestSpecification alice() {
        return RestAssured.given().auth().oauth2(Tokens.alice());
    }

    static RequestSpecification aliceJson(Object body) {
        return alice().contentType(ContentType.JSON).body(body);
    }

    static String newIncident(String workspace) {
        String key = Evidence.uniqueKey();
        aliceJson(incident(key)).post("/api/v1/workspaces/{ws}/incidents", workspace).then().statusCode(201);
        return key;
    }

    static String upload(byte[] bytes) {
        return alice().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs")
                .then().statusCode(201).extract().path("digest");
    }

    static String bind(String workspace, String key, String name, String digest) {
        return aliceJson(artifact(name, digest)).post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", workspace,
                key).then().statusCode(201).extract().path("id");
    }

    static Map<String, Object> artifact(String name, String digest) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("digest", digest);
        body.put("mediaType", "application/json");
        body.put("source", "grafana");
        body.put("kind", "snapshot");
        body.put("capturedAt", "2026-06-18T10:20:00Z");
        return body;
    }

    /** Every audit entry of the workspace, oldest first, following {@code nextCursor}. */
    static List<Map<String, Object>> entries(String workspace) {
        List<Map<String, Object>> entries = new ArrayList<>();
        String cursor = null;
        do {
            RequestSpecification request = api().queryParam("limit", 200);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.get("/api/v1/workspaces/{ws}/audit", workspace)
                    .then().statusCode(200).extract().jsonPath();
            entries.addAll(page.getList("items"));
            cursor = page.getString("nextCursor");
        } while (cursor != null);
        return entries;
    }

    /** The last audit entry of the workspace. */
    static Map<String, Object> last(String workspace) {
        List<Map<String, Object>> entries = entries(workspace);
        return entries.get(entries.size() - 1);
    }

    /**
     * The entry's hash computed here, independently of the service, from the published rule: SHA-256 of the RFC 8785
     * canonical JSON of every member but {@code entryHash}.
     */
    static String hashOf(Map<String, Object> entry) {
        Map<String, Object> members = new LinkedHashMap<>(entry);
        members.remove("entryHash");
        return "sha256:" + DigestUtils.sha256Hex(canonical(members));
    }

    static byte[] canonical(Map<String, Object> members) {
        try {
            return new JsonCanonicalizer(JSON.writeValueAsString(members)).getEncodedUTF8();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long seq(Map<String, Object> entry) {
        return ((Number) entry.get("seq")).longValue();
    }

    /** The RFC 9162 root of the first {@code size} entries, computed from their rows alone. */
    static byte[] naiveRoot(long size) throws SQLException {
        List<byte[]> leaves = new ArrayList<>();
        try (Connection connection = Sql.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT * FROM audit_entry WHERE seq <= ? ORDER BY seq")) {
            select.setLong(1, size);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    AuditEntry entry = AuditEntry.ofColumns(rows.getLong("seq"),
                            rows.getObject("at", OffsetDateTime.class).toInstant(), rows.getString("actor"),
                            rows.getString("workspace"), rows.getString("method"), rows.getString("path"),
                            rows.getString("target"), rows.getInt("status"), rows.getString("problem"),
                            rows.getBoolean("replayed"), rows.getString("truncated"), rows.getString("aggregate"),
                            rows.getString("prev_hash"), rows.getString("entry_hash"));
                    leaves.add(MerkleHash.leaf(entry.canonicalJson()));
                }
            }
        }
        return MerkleTree.root(leaves.size(), SubtreeHashes.ofLeaves(leaves));
    }
}
