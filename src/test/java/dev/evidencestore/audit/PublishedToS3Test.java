package dev.evidencestore.audit;

import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.S3ProxyServer;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.S3ProxyServer.BUCKET;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Checkpoints published to an S3 bucket (S3Proxy), the blobs' bucket under a prefix of their own, and read back from
 * there by verify. Non-destructive: it runs on the shared test database.
 */
@QuarkusTest
@TestProfile(Profiles.OnS3.class)
class PublishedToS3Test {

    private static final String PREFIX = "checkpoints/";
    private static final String ORIGIN = "evidence-store.test/audit";

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

    @Test
    void publishesEachCheckpointAsAnObjectAndVerifiesTheLogAgainstThem() throws Exception {
        Map<String, Object> checkpoint = checkpoint();
        String key = PREFIX + String.format("checkpoint-%020d-%s", ((Number) checkpoint.get("treeSize")).longValue(),
                checkpoint.get("keyId"));
        assertArrayEquals(((String) checkpoint.get("note")).getBytes(StandardCharsets.UTF_8),
                s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(key)).asByteArray());

        List<String> published = s3.listObjectsV2Paginator(b -> b.bucket(BUCKET).prefix(PREFIX)).contents().stream()
                .map(S3Object::key).toList();
        long stored = Sql.count(
                "SELECT count(*) FROM (SELECT DISTINCT tree_size, key_id FROM audit_tree_checkpoint) names");
        assertEquals(stored, published.size(), "every stored checkpoint, once per name: " + published);
        Map<String, Object> verdict = verify();
        assertEquals(true, verdict.get("intact"), verdict.toString());
        assertEquals(published.size(), ((Number) verdict.get("publishedCheckpoints")).intValue());
        assertEquals(0, ((Number) verdict.get("unpublishedCheckpoints")).intValue());
    }

    @Test
    void anObjectSignedByAForeignKeyIsABreakNamingIt() throws Exception {
        Map<String, Object> checkpoint = checkpoint();
        long size = ((Number) checkpoint.get("treeSize")).longValue();
        KeyPair foreign = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        String note = SignedNote.sign(new Checkpoint(ORIGIN, size,
                Base64.getDecoder().decode((String) checkpoint.get("rootHash"))).body(), ORIGIN, foreign.getPrivate());
        String key = PREFIX + String.format("checkpoint-%020d-%s", size,
                NoteKey.of(ORIGIN, foreign.getPublic()).keyIdHex());
        s3.putObject(b -> b.bucket(BUCKET).key(key), RequestBody.fromString(note));
        try {
            Map<String, Object> verdict = verify();
            assertEquals(false, verdict.get("intact"));
            assertEquals("the published checkpoint s3://" + BUCKET + "/" + key + " is not signed by a trusted key "
                    + "(GET /api/v1/audit/keys lists them)", verdict.get("reason"));
        } finally {
            s3.deleteObject(b -> b.bucket(BUCKET).key(key));
        }
        assertEquals(true, verify().get("intact"));
    }

    private static Map<String, Object> checkpoint() {
        return as(Tokens.bob()).post("/api/v1/audit/checkpoints").then().statusCode(201).extract().jsonPath()
                .getMap("");
    }

    private static Map<String, Object> verify() {
        return api().contentType("application/json").body("{}").post("/api/v1/audit/verify").then().statusCode(200)
                .extract().jsonPath().getMap("");
    }
}
