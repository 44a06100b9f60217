package dev.evidencestore.audit;

import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.MerkleTree;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import dev.evidencestore.verify.SubtreeHashes;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints are C2SP signed notes over the Merkle tree of the log, signed with the configured key: anyone can
 * check one with the public key alone, with this library or with openssl.
 */
@QuarkusTest
class AuditCheckpointTest {

    private static final String CHECKPOINTS = "/api/v1/audit/checkpoints";
    private static final String LATEST = "/api/v1/audit/checkpoints/latest";
    private static final String NOTE = "/api/v1/audit/checkpoint";
    private static final String ORIGIN = "evidence-store.test/audit";

    @Inject
    Scheduler scheduler;

    @Inject
    AuditLog log;

    @Test
    void signsTheTreeOfEveryEntryCommitted() throws Exception {
        // the scheduled checkpoint may fire right after startup; it must not slip in between the calls below
        scheduler.pause(AuditCheckpoints.JOB);
        try {
            AuditTrail.newIncident(AuditTrail.newWorkspace());
            Sql.awaitAuditSequenced();
            long entries = Sql.count("SELECT max(seq) FROM audit_entry");

            Map<String, Object> checkpoint = as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201)
                    .extract().jsonPath().getMap("");
            assertEquals(Set.of("origin", "treeSize", "rootHash", "keyId", "note", "at"), checkpoint.keySet());
            assertEquals(ORIGIN, checkpoint.get("origin"));
            assertEquals(entries, ((Number) checkpoint.get("treeSize")).longValue());
            byte[] root = naiveRoot(entries);
            assertEquals(Base64.getEncoder().encodeToString(root), checkpoint.get("rootHash"));
            assertEquals(devKey().keyIdHex(), checkpoint.get("keyId"));

            String note = (String) checkpoint.get("note");
            SignedNote signed = SignedNote.parse(note);
            assertTrue(signed.verify(devKey()), "the note verifies with the development public key");
            Checkpoint body = Checkpoint.parse(signed.body());
            assertEquals(ORIGIN, body.origin());
            assertEquals(entries, body.size());
            assertArrayEquals(root, body.rootHash());

            given().get(NOTE).then().statusCode(200).contentType("text/plain;charset=UTF-8")
                    .body(org.hamcrest.Matchers.equalTo(note));
            assertEquals(checkpoint, as(Tokens.of("rita", "reader")).get(LATEST).then().statusCode(200)
                    .extract().jsonPath().getMap(""));
        } finally {
            scheduler.resume(AuditCheckpoints.JOB);
        }
    }

    /** The commands docs/integrity.md gives: the signature is Ed25519 over the note text, after a 4-byte key hash. */
    @Test
    void aCheckpointVerifiesWithOpensslAlone() throws Exception {
        String note = as(Tokens.bob()).post(CHECKPOINTS).then().statusCode(201).extract().path("note");
        Path dir = Files.createTempDirectory("checkpoint");
        try {
            Files.writeString(dir.resolve("checkpoint"), note, StandardCharsets.UTF_8);
            Files.copy(Path.of("src/main/resources/dev-keys/audit-ed25519-public.pem"), dir.resolve("audit.pem"));
            String script = """
                    set -e
                    sed '/^$/,$d' checkpoint > body
                    grep '^\u2014 ' checkpoint | head -n 1 | awk '{print $NF}' | base64 -d | tail -c 64 > signature
                    openssl pkeyutl -verify -pubin -inkey audit.pem -rawin -in body -sigfile signature
                    """;
            assertEquals("Signature Verified Successfully", run(dir, script));
            long size = Checkpoint.parse(SignedNote.parse(note).body()).size();
            Files.writeString(dir.resolve("checkpoint"), note.replaceFirst("\n" + size + "\n", "\n" + (size + 1) + "\n"));
            assertTrue(run(dir, script.replace("set -e\n", "")).contains("Signature Verification Failure"),
                    "a note whose size was changed does not verify");
        } finally {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void onlyReviewersSignEveryRoleReadsAndTheNoteNeedsNoToken() {
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
        given().get(NOTE).then().statusCode(200);
    }

    private byte[] naiveRoot(long entries) {
        List<byte[]> leaves = new ArrayList<>();
        for (AuditEntry entry : log.range(0, entries, (int) entries + 1)) {
            leaves.add(MerkleHash.leaf(entry.canonicalJson()));
        }
        return MerkleTree.root(entries, SubtreeHashes.ofLeaves(leaves));
    }

    static NoteKey devKey() throws Exception {
        return NoteKey.of(ORIGIN, Ed25519Keys.readPublicPem(
                Files.readString(Path.of("src/main/resources/dev-keys/audit-ed25519-public.pem"))));
    }

    private static String run(Path dir, String script) throws Exception {
        Process process = new ProcessBuilder("bash", "-c", script).directory(dir.toFile()).redirectErrorStream(true)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        process.waitFor();
        return out;
    }
}
