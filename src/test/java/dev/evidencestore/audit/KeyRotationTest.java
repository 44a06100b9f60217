package dev.evidencestore.audit;

import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A rotated signing key: the old public key is listed as retired, so the checkpoints it signed (every other test
 * class signs with the development key) still verify, and new checkpoints are signed with the new key.
 */
@QuarkusTest
@TestProfile(Profiles.RotatedKeyAndSmallBlobs.class)
class KeyRotationTest {

    private static final Path NEW_KEY = Profiles.ROTATED_KEY;

    @Test
    void oldCheckpointsVerifyWithTheRetiredKeyAndNewOnesUseTheNewKey() throws Exception {
        NoteKey retired = AuditCheckpointTest.devKey();
        NoteKey signing = NoteKey.of("evidence-store.test/audit",
                Ed25519Keys.publicKeyOf(Ed25519Keys.readPrivatePem(Files.readString(NEW_KEY))));

        List<Map<String, Object>> keys = given().get("/api/v1/audit/keys").then().statusCode(200)
                .extract().jsonPath().getList("keys");
        assertEquals(List.of(signing.keyIdHex(), retired.keyIdHex()), keys.stream().map(k -> k.get("keyId")).toList());
        assertEquals(List.of("signing", "retired"), keys.stream().map(k -> k.get("role")).toList());
        assertEquals(signing.verifierKey(), keys.get(0).get("verifierKey"));

        String note = as(Tokens.bob()).post("/api/v1/audit/checkpoints").then().statusCode(201).extract().path("note");
        assertTrue(SignedNote.parse(note).verify(signing), "a new checkpoint is signed with the new key");
        assertEquals(false, SignedNote.parse(note).verify(retired));

        Map<String, Object> verdict = api().contentType("application/json").body("{}").post("/api/v1/audit/verify")
                .then().statusCode(200).extract().jsonPath().getMap("");
        assertEquals(true, verdict.get("intact"), "old and new checkpoints verify: " + verdict);
    }
}
