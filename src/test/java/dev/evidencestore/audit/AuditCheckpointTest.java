package dev.evidencestore.audit;

import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static dev.evidencestore.audit.AuditTrail.seq;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Checkpoints sign the head of the chain with the configured Ed25519 key; anyone can check them with the JDK. */
@QuarkusTest
class AuditCheckpointTest {

    private static final String CHECKPOINTS = "/api/v1/audit/checkpoints";
    private static final String LATEST = "/api/v1/audit/checkpoints/latest";

    @Inject
    Scheduler scheduler;

    @Test
    void signsTheHeadOfTheChain() throws Exception {
        // the scheduled checkpoint may fire right after startup; it must not slip in between the two calls below
        scheduler.pause(AuditCheckpoints.JOB);
        try {
            String ws = AuditTrail.newWorkspace();
            AuditTrail.newIncident(ws);
            Map<String, Object> head = AuditTrail.last(ws);

            Map<String, Object> checkpoint = as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201)
                    .extract().jsonPath().getMap("");
            assertEquals(Set.of("chainLength", "headHash", "at", "publicKey", "signature"), checkpoint.keySet());
            assertEquals(seq(head), ((Number) checkpoint.get("chainLength")).longValue());
            assertEquals(head.get("entryHash"), checkpoint.get("headHash"));
            assertEquals(devPublicKey(), checkpoint.get("publicKey"));
            assertTrue(signatureHolds(checkpoint), "the signature verifies with the JDK");
            assertEquals(1, Sql.count("SELECT count(*) FROM audit_checkpoint WHERE chain_length = ? AND head_hash = ? "
                    + "AND signature = ?", seq(head), checkpoint.get("headHash"), checkpoint.get("signature")));

            assertEquals(checkpoint, as(Tokens.of("rita", "reader")).get(LATEST).then().statusCode(200)
                    .extract().jsonPath().getMap(""));
        } finally {
            scheduler.resume(AuditCheckpoints.JOB);
        }
    }

    @Test
    void aTamperedCheckpointDoesNotVerify() throws Exception {
        Map<String, Object> checkpoint = as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201)
                .extract().jsonPath().getMap("");
        Map<String, Object> forged = new LinkedHashMap<>(checkpoint);
        forged.put("chainLength", ((Number) checkpoint.get("chainLength")).longValue() - 1);
        assertTrue(signatureHolds(checkpoint));
        assertEquals(false, signatureHolds(forged));
    }

    @Test
    void onlyReviewersSignAndEveryRoleReads() {
        problem(as(Tokens.of("rita", "reader", "collector", "investigator")).post(CHECKPOINTS).then(), 403,
                "forbidden");
        problem(invalidAs(null).post(CHECKPOINTS).then(), 401, "unauthorized").header("WWW-Authenticate", "Bearer");
        problem(invalidAs(Tokens.expired()).post(CHECKPOINTS).then(), 401, "unauthorized");
        as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201);
        for (String role : Tokens.ALL_ROLES) {
            as(Tokens.of("rita", role)).get(LATEST).then().statusCode(200);
        }
        problem(as(Tokens.of("eve", "auditor")).get(LATEST).then(), 403, "forbidden");
        problem(invalidAs(null).get(LATEST).then(), 401, "unauthorized");
    }

    /** Checks a checkpoint as any client would: Ed25519 over the RFC 8785 JSON of chainLength, headHash and at. */
    private static boolean signatureHolds(Map<String, Object> checkpoint) throws Exception {
        Map<String, Object> signed = new LinkedHashMap<>();
        signed.put("chainLength", checkpoint.get("chainLength"));
        signed.put("headHash", checkpoint.get("headHash"));
        signed.put("at", checkpoint.get("at"));
        PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(
                new X509EncodedKeySpec(Base64.getDecoder().decode((String) checkpoint.get("publicKey"))));
        Signature verifier = Signature.getInstance("Ed25519");
        verifier.initVerify(key);
        verifier.update(AuditTrail.canonical(signed));
        return verifier.verify(Base64.getDecoder().decode((String) checkpoint.get("signature")));
    }

    private static String devPublicKey() throws Exception {
        return Files.readString(Path.of("src/main/resources/dev-keys/audit-ed25519-public.pem"))
                .replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
    }
}
