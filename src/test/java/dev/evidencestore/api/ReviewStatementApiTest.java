package dev.evidencestore.api;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.Dsse;
import dev.evidencestore.verify.DsseEnvelope;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.MerkleProof;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.json;
import static dev.evidencestore.support.Api.problem;
import static dev.evidencestore.support.Api.reviewerJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every review decision is attested by a signed in-toto statement that names the audit leaf of the review's own
 * entry: its contents exactly, its signature with openssl alone, and the leaf's inclusion under a checkpoint.
 */
@QuarkusTest
class ReviewStatementApiTest {

    private static final String WS = "demo";
    private static final String ORIGIN = "evidence-store.test/audit";
    private static final Path DEV_PUBLIC_KEY = Path.of("src/main/resources/dev-keys/audit-ed25519-public.pem");
    private static final String ROOT_CAUSE = "/api/v1/workspaces/{ws}/incidents/{key}/root-cause";

    @Test
    void anAcceptedFindingIsAttestedExactly() throws Exception {
        Fixtures.Cited cited = Fixtures.cited(WS, "panel", Evidence.uniqueBytes(64));
        JsonPath verification = api().contentType(ContentType.JSON)
                .post("/api/v1/artifacts/{id}/verifications", cited.artifactId())
                .then().statusCode(201).extract().jsonPath();
        JsonPath reviewed = reviewerJson(Map.of("decision", "accepted", "note", "Checked the bytes."))
                .post("/api/v1/findings/{id}/reviews", cited.findingId()).then().statusCode(201).extract().jsonPath();
        assertEquals(1, Sql.count("SELECT count(*) FROM review_statement s JOIN finding_review r"
                + " ON r.id = s.finding_review_id WHERE r.reviewed_at = ?::timestamptz",
                reviewed.getString("reviews[0].reviewedAt")), "signed as the review was answered, before any read");

        JsonPath statements = api().get("/api/v1/findings/{id}/statements", cited.findingId())
                .then().statusCode(200).extract().jsonPath();
        assertEquals(1, statements.getList("items").size());
        long leaf = leafOfReview("finding_review", cited.findingId());
        assertEquals(cited.findingId(), statements.getString("items[0].record"));
        assertEquals("accepted", statements.getString("items[0].decision"));
        assertEquals(leaf, statements.getLong("items[0].leafIndex"));
        assertEquals(devKey().keyIdHex(), statements.getString("items[0].keyId"));

        DsseEnvelope envelope = envelopeOf(statements, 0);
        assertEquals("application/vnd.in-toto+json", envelope.payloadType());
        assertEquals(devKey().keyIdHex(), envelope.signatures().get(0).keyid());
        String expected = "{\"_type\":\"https://in-toto.io/Statement/v1\","
                + "\"predicate\":{\"decision\":\"accepted\",\"finding\":\"" + cited.findingId() + "\","
                + "\"log\":{\"leafIndex\":" + leaf + ",\"origin\":\"" + ORIGIN + "\"},"
                + "\"reviewedAt\":\"" + reviewed.getString("reviews[0].reviewedAt") + "\","
                + "\"reviewer\":{\"name\":\"bob\",\"principal\":\"" + Tokens.ISSUER + " bob\"},"
                + "\"statementSha256\":\"" + DigestUtils.sha256Hex("The panel shows the queue rising.") + "\","
                + "\"verifications\":[{\"artifact\":\"" + cited.artifactId() + "\",\"digest\":\"" + cited.digest()
                + "\",\"verified\":true,\"verifiedAt\":\"" + verification.getString("verifiedAt") + "\","
                + "\"verifiedBy\":{\"name\":\"alice\",\"principal\":\"" + Tokens.ISSUER + " alice\"}}]},"
                + "\"predicateType\":\"https://evidence-store.dev/attestations/review/v1\","
                + "\"subject\":[{\"digest\":{\"sha256\":\"" + cited.digest().substring("sha256:".length())
                + "\"},\"name\":\"" + cited.artifactId() + "\"}]}";
        assertEquals(expected, new String(envelope.payload(), StandardCharsets.UTF_8));

        assertEquals("Signature Verified Successfully", opensslVerify(envelope));

        // the leaf is the review's own entry, and a checkpoint covers it
        JsonPath entry = JsonPath.from(new String(leafBytes(leaf), StandardCharsets.UTF_8));
        assertEquals("/api/v1/findings/" + cited.findingId() + "/reviews", entry.getString("path"));
        assertEquals(201, entry.getInt("status"));
        assertEquals("bob", entry.getString("actor"));
        assertIncludedUnderACheckpoint(leaf);

        // stored once signed: asked again, the same bytes
        assertEquals(statements.getString("items[0].envelope.signatures[0].sig"),
                api().get("/api/v1/findings/{id}/statements", cited.findingId()).then().statusCode(200)
                        .extract().path("items[0].envelope.signatures[0].sig"));
        assertEquals(1, Sql.count("SELECT count(*) FROM review_statement WHERE leaf_index = ?", leaf));
    }

    /** A rejected root cause revised before anyone asked still has the statement of what was rejected. */
    @Test
    void theRootCauseStatementAttestsWhatWasDecidedAndTheIncidentListsAll() throws Exception {
        Fixtures.Cited cited = Fixtures.cited(WS, "queue", Evidence.uniqueBytes(64));
        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", cited.artifactId())
                .then().statusCode(201);
        reviewerJson(Map.of("decision", "accepted", "note", "Fine.")).post("/api/v1/findings/{id}/reviews",
                cited.findingId()).then().statusCode(201);
        problem(api().get(ROOT_CAUSE + "/statements", WS, cited.key()).then(), 404, "not-found");
        String first = "The batch size change starved the workers.";
        json(Map.of("statement", first, "confidence", "high", "findingIds", List.of(cited.findingId())))
                .put(ROOT_CAUSE, WS, cited.key()).then().statusCode(201);
        reviewerJson(Map.of("decision", "rejected", "note", "Say why the lease matters."))
                .post(ROOT_CAUSE + "/reviews", WS, cited.key()).then().statusCode(201);
        json(Map.of("statement", "The batch size change outlived the worker lease.", "confidence", "high",
                "findingIds", List.of(cited.findingId()))).put(ROOT_CAUSE, WS, cited.key()).then().statusCode(200);

        JsonPath rootCause = api().get(ROOT_CAUSE + "/statements", WS, cited.key()).then().statusCode(200)
                .extract().jsonPath();
        assertEquals(1, rootCause.getList("items").size());
        assertEquals("rejected", rootCause.getString("items[0].decision"));
        JsonPath payload = JsonPath.from(new String(envelopeOf(rootCause, 0).payload(), StandardCharsets.UTF_8));
        assertEquals("root-cause:" + WS + ":v1:" + cited.key(), payload.getString("predicate.rootCause"));
        assertEquals(DigestUtils.sha256Hex(first), payload.getString("predicate.statementSha256"));
        assertEquals(List.of(cited.artifactId()), payload.getList("subject.name"));
        assertEquals(leafOfReview("root_cause_review", "root-cause:" + WS + ":v1:" + cited.key()),
                payload.getLong("predicate.log.leafIndex"));
        assertEquals("Signature Verified Successfully", opensslVerify(envelopeOf(rootCause, 0)));

        JsonPath incident = api().get("/api/v1/workspaces/{ws}/incidents/{key}/statements", WS, cited.key())
                .then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(cited.findingId(), "root-cause:" + WS + ":v1:" + cited.key()),
                incident.getList("items.record"));
        List<Long> leaves = incident.getList("items.leafIndex", Long.class);
        assertTrue(leaves.get(0) < leaves.get(1), "in log order: " + leaves);
    }

    @Test
    void statementsAreReadLikeTheirRecords() {
        Fixtures.Cited cited = Fixtures.cited(WS, "gate", Evidence.uniqueBytes(64));
        api().get("/api/v1/findings/{id}/statements", cited.findingId()).then().statusCode(200)
                .body("items", org.hamcrest.Matchers.hasSize(0));
        problem(as(Tokens.of("olga", java.util.Set.of("reader"), List.of("other"))).get(
                "/api/v1/findings/{id}/statements", cited.findingId()).then(), 404, "not-found");
        problem(api().get("/api/v1/findings/{id}/statements", "finding:" + WS + ":v1:" + cited.key() + ":nothing")
                .then(), 404, "not-found");
        problem(invalid().get("/api/v1/findings/{id}/statements", "not-an-id").then(), 400, "invalid-request");
        problem(invalid().get("/api/v1/workspaces/{ws}/incidents/{key}/statements", WS, "no such key").then(), 400,
                "invalid-request");
        problem(api().get("/api/v1/workspaces/{ws}/incidents/{key}/statements", WS, "NOPE-999999999").then(), 404,
                "not-found");
    }

    private static long leafOfReview(String table, String recordId) throws Exception {
        String column = table.equals("finding_review") ? "finding_id" : "root_cause_id";
        String record = table.equals("finding_review") ? "finding" : "root_cause";
        String[] parts = recordId.split(":");
        String name = table.equals("finding_review") ? " AND x.name = '" + parts[4] + "'" : "";
        return Sql.count("SELECT e.seq - 1 FROM audit_entry e JOIN " + table + " r ON r.request_id = e.request_id"
                + " JOIN " + record + " x ON x.id = r." + column + " JOIN incident i ON i.id = x.incident_id"
                + " WHERE i.workspace = ? AND i.incident_key = ?" + name, parts[1], parts[3]);
    }

    private static DsseEnvelope envelopeOf(JsonPath statements, int item) {
        Map<String, Object> envelope = statements.getMap("items[" + item + "].envelope");
        return DsseEnvelope.parse(dev.evidencestore.verify.Json.write(envelope));
    }

    private static byte[] leafBytes(long index) {
        // the leaf bytes, not the JSON entry the contract describes for listings
        return io.restassured.RestAssured.given().header("Authorization", "Bearer " + Tokens.alice())
                .get("/api/v1/audit/entries/{index}", index).then().statusCode(200).extract().asByteArray();
    }

    private static void assertIncludedUnderACheckpoint(long leaf) throws Exception {
        String note = as(Tokens.bob()).post("/api/v1/audit/checkpoints").then().statusCode(201).extract().path("note");
        SignedNote signed = SignedNote.parse(note);
        assertTrue(signed.verify(devKey()), "the checkpoint verifies with the development key");
        Checkpoint checkpoint = Checkpoint.parse(signed.body());
        List<byte[]> proof = api().queryParam("index", leaf).queryParam("size", checkpoint.size())
                .get("/api/v1/audit/proof/inclusion").then().statusCode(200).extract().jsonPath()
                .getList("hashes", String.class).stream().map(Base64.getDecoder()::decode).toList();
        MerkleProof.verifyInclusion(leaf, checkpoint.size(), MerkleHash.leaf(leafBytes(leaf)), proof,
                checkpoint.rootHash());
    }

    /** The command docs/integrity.md gives, over the PAE bytes of the envelope. */
    static String opensslVerify(DsseEnvelope envelope) throws Exception {
        Path dir = Files.createTempDirectory("statement");
        try {
            Files.write(dir.resolve("pae.bin"), Dsse.pae(envelope.payloadType(), envelope.payload()));
            Files.write(dir.resolve("sig.bin"), envelope.signatures().get(0).sig());
            Files.copy(DEV_PUBLIC_KEY, dir.resolve("pub.pem"));
            Process process = new ProcessBuilder("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", "pub.pem",
                    "-rawin", "-in", "pae.bin", "-sigfile", "sig.bin").directory(dir.toFile())
                    .redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            process.waitFor();
            return out;
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    static NoteKey devKey() throws Exception {
        return NoteKey.of(ORIGIN, Ed25519Keys.readPublicPem(Files.readString(DEV_PUBLIC_KEY)));
    }
}
