package dev.evidencestore.audit;

import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.MerkleProof;
import dev.evidencestore.verify.ProofFailure;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.evidencestore.audit.AuditTrail.seq;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * What a reader holding only a checkpoint can check, through the API and without a token: that one entry's exact
 * bytes are in the tree, and that a later tree extends an earlier one.
 */
@QuarkusTest
class TransparencyLogApiTest {

    private static final String CHECKPOINTS = "/api/v1/audit/checkpoints";

    @Test
    void anEntrysLeafBytesAreInTheTreeOfALaterCheckpoint() {
        String ws = AuditTrail.newWorkspace();
        AuditTrail.newIncident(ws);
        Map<String, Object> entry = AuditTrail.last(ws);
        long index = seq(entry) - 1;
        Map<String, Object> checkpoint = as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201)
                .extract().jsonPath().getMap("");
        long size = ((Number) checkpoint.get("treeSize")).longValue();
        byte[] root = Base64.getDecoder().decode((String) checkpoint.get("rootHash"));

        byte[] leaf = as(Tokens.alice()).get("/api/v1/audit/entries/" + index).then().statusCode(200)
                .contentType("application/json").extract().asByteArray();
        assertEquals(entry.get("entryHash"), "sha256:" + DigestUtils.sha256Hex(leaf),
                "the leaf bytes are the entry's canonical JSON, whose SHA-256 is its entryHash");
        List<byte[]> proof = proof(given().queryParam("index", index).queryParam("size", size)
                .get("/api/v1/audit/proof/inclusion").then().statusCode(200)
                .body("index", equalTo((int) index)).body("size", equalTo((int) size)).extract().path("hashes"));

        MerkleProof.verifyInclusion(index, size, MerkleHash.leaf(leaf), proof, root);
        byte[] altered = leaf.clone();
        altered[altered.length / 2] ^= 1;
        assertThrows(ProofFailure.class,
                () -> MerkleProof.verifyInclusion(index, size, MerkleHash.leaf(altered), proof, root));
    }

    @Test
    void aLaterTreeIsProvedToExtendAnEarlierOne() {
        AuditTrail.newIncident(AuditTrail.newWorkspace());
        Map<String, Object> first = as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201).extract().jsonPath()
                .getMap("");
        AuditTrail.newIncident(AuditTrail.newWorkspace());
        Map<String, Object> second = as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201).extract().jsonPath()
                .getMap("");
        long from = ((Number) first.get("treeSize")).longValue();
        long to = ((Number) second.get("treeSize")).longValue();
        List<byte[]> proof = proof(given().queryParam("from", from).queryParam("to", to)
                .get("/api/v1/audit/proof/consistency").then().statusCode(200).extract().path("hashes"));

        byte[] fromRoot = Base64.getDecoder().decode((String) first.get("rootHash"));
        byte[] toRoot = Base64.getDecoder().decode((String) second.get("rootHash"));
        MerkleProof.verifyConsistency(from, to, fromRoot, toRoot, proof);
        byte[] forked = toRoot.clone();
        forked[0] ^= 1;
        assertThrows(ProofFailure.class, () -> MerkleProof.verifyConsistency(from, to, fromRoot, forked, proof));
    }

    @Test
    void leavesAreScopedLikeTheAuditPages() {
        String ws = AuditTrail.newWorkspace();
        AuditTrail.newIncident(ws);
        long index = seq(AuditTrail.last(ws)) - 1;
        as(Tokens.alice()).get("/api/v1/audit/entries/" + index).then().statusCode(200);
        problem(as(Tokens.of("carol", Set.of("reader"), List.of("elsewhere"))).get("/api/v1/audit/entries/" + index)
                .then(), 404, "not-found");
        problem(invalidAs(null).get("/api/v1/audit/entries/" + index).then(), 401, "unauthorized");
        problem(as(Tokens.alice()).get("/api/v1/audit/entries/999999999").then(), 404, "not-found");
    }

    @Test
    void positionsOutsideTheTreeOrNotNumbersAreRefused() {
        problem(invalidAs(null).get("/api/v1/audit/proof/inclusion?index=abc&size=1").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("index"));
        problem(invalidAs(null).get("/api/v1/audit/proof/inclusion?index=0").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("size")).body("errors[0].message", equalTo("is required"));
        problem(invalidAs(null).get("/api/v1/audit/proof/inclusion?index=0&size=999999999999").then(), 400,
                "invalid-request").body("errors[0].field", equalTo("size"));
        problem(invalidAs(null).get("/api/v1/audit/proof/inclusion?index=5&size=5").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("index"));
        problem(invalidAs(null).get("/api/v1/audit/proof/consistency?from=0&to=1").then(), 400, "invalid-request")
                .body("errors[0].field", equalTo("from"));
        problem(invalidAs(null).get("/api/v1/audit/proof/consistency?from=-1&to=1").then(), 400, "invalid-request");
        problem(invalidAs(Tokens.alice()).get("/api/v1/audit/entries/x1").then(), 400, "invalid-request");
    }

    private static List<byte[]> proof(List<String> hashes) {
        return hashes.stream().map(Base64.getDecoder()::decode).toList();
    }
}
