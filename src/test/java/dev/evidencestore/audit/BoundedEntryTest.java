package dev.evidencestore.audit;

import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Base64;
import java.util.Map;
import java.util.Random;

import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An anonymous write to a 3,900-character path is refused and audited, in an entry of bounded size that records the
 * path's first 256 bytes with its length and digest; the log still verifies, and the leaf bytes say the same.
 */
@QuarkusTest
class BoundedEntryTest {

    private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    @Test
    void anOversizedPathIsRecordedCutWithItsLengthAndDigest() throws Exception {
        String id = random(3_900);
        String path = "/api/v1/artifacts/" + id + "/verifications";
        problem(invalidAs(null).contentType(ContentType.JSON).post(path).then(), 401, "unauthorized");

        Sql.awaitAuditSequenced();
        String kept = path.substring(0, 256);
        long seq;
        String truncated;
        int rowBytes;
        try (Connection connection = Sql.connect();
             PreparedStatement select = connection.prepareStatement("""
                     SELECT seq, truncated, pg_column_size(e.*) AS row_bytes FROM audit_entry e
                     WHERE path = ? AND status = 401""")) {
            select.setString(1, kept);
            try (ResultSet row = select.executeQuery()) {
                assertTrue(row.next(), "the refusal has its entry, under the path's first 256 bytes");
                seq = row.getLong("seq");
                truncated = row.getString("truncated");
                rowBytes = row.getInt("row_bytes");
            }
        }
        assertEquals("{\"path\":{\"digest\":\"sha256:" + DigestUtils.sha256Hex(path) + "\",\"length\":3932},"
                + "\"target\":{\"digest\":\"sha256:" + DigestUtils.sha256Hex(id) + "\",\"length\":3900}}", truncated);
        assertTrue(rowBytes < 1_200, "the row takes " + rowBytes + " bytes");

        // the leaf bytes are the canonical JSON with the cut values and the truncations, and hash to the entry
        byte[] leaf = as(Tokens.alice()).get("/api/v1/audit/entries/" + (seq - 1)).then().statusCode(200)
                .extract().asByteArray();
        assertTrue(leaf.length <= AuditEntry.MAX_CANONICAL_BYTES && leaf.length < 1_000, leaf.length + " bytes");
        JsonPath json = new JsonPath(new String(leaf, StandardCharsets.UTF_8));
        assertEquals(kept, json.getString("path"));
        assertEquals(id.substring(0, 256), json.getString("target"));
        assertEquals(3_932, json.getInt("truncated.path.length"));
        assertEquals("sha256:" + DigestUtils.sha256Hex(path), json.getString("truncated.path.digest"));
        String entryHash;
        try (Connection connection = Sql.connect();
             PreparedStatement select = connection.prepareStatement("SELECT entry_hash FROM audit_entry WHERE seq = ?")) {
            select.setLong(1, seq);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                entryHash = row.getString(1);
            }
        }
        assertEquals(entryHash, "sha256:" + DigestUtils.sha256Hex(leaf));

        // the service's verification recomputes every entry, truncations included, and so do the rows read here
        Map<String, Object> verdict = as(Tokens.alice()).contentType(ContentType.JSON).body("{}").post("/api/v1/audit/verify").then().statusCode(200)
                .extract().jsonPath().getMap("");
        assertEquals(true, verdict.get("intact"), verdict.toString());
        long size = ((Number) verdict.get("treeSize")).longValue();
        assertTrue(size >= seq);
        assertEquals(Base64.getEncoder().encodeToString(AuditTrail.naiveRoot(size)), verdict.get("rootHash"));
    }

    private static String random(int length) {
        Random random = new Random(15);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            text.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return text.toString();
    }
}
