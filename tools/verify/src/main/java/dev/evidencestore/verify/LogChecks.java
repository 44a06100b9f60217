package dev.evidencestore.verify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The review statements and the log's leaves of an evidence bundle: every statement is signed by the given key,
 * attests artifacts of the manifest at their digests, and names a leaf the bundle ships; every leaf is a review's
 * entry and is included in the tree of the checkpoint, which was checked against the given key before.
 */
final class LogChecks {

    static final String IN_TOTO = "application/vnd.in-toto+json";
    static final String STATEMENT_TYPE = "https://in-toto.io/Statement/v1";
    static final String PREDICATE_TYPE = "https://evidence-store.dev/attestations/review/v1";
    private static final String STATEMENTS = "statements/";
    private static final String ENTRIES = "log/entries/";
    private static final String PROOFS = "log/proofs/";

    private final EvidenceZip zip;
    private final GivenKeys keys;
    private final Checks checks;
    private final Map<String, String> artifacts;
    /** Null when it did not verify: then no leaf can be shown to be in the log. */
    private final Checkpoint checkpoint;

    LogChecks(EvidenceZip zip, GivenKeys keys, Checks checks, Map<String, String> artifacts, Checkpoint checkpoint) {
        this.zip = zip;
        this.keys = keys;
        this.checks = checks;
        this.artifacts = artifacts;
        this.checkpoint = checkpoint;
    }

    void run() throws IOException {
        for (String file : zip.under(STATEMENTS)) {
            try {
                statement(file);
            } catch (IllegalArgumentException e) { // MalformedInput among them
                checks.fail(file, e.getMessage());
            }
        }
        for (String file : zip.under(ENTRIES)) {
            try {
                leaf(file);
            } catch (ProofFailure | IllegalArgumentException e) { // MalformedInput among them
                checks.fail(file, e.getMessage());
            }
        }
    }

    private void statement(String file) throws IOException {
        long leaf = indexOf(file, STATEMENTS, ".dsse.json");
        DsseEnvelope envelope = DsseEnvelope.parse(zip.text(file).orElseThrow());
        if (!envelope.payloadType().equals(IN_TOTO) || !keys.signed(envelope)) {
            checks.fail(file, envelope.payloadType().equals(IN_TOTO) ? "no valid signature of a given key"
                    : "payload type is " + envelope.payloadType() + ", not " + IN_TOTO);
            return;
        }
        checks.pass(file, "DSSE signature of a given key over the in-toto statement");
        Map<String, Object> statement = Json.object(Json.parse(new String(envelope.payload(),
                StandardCharsets.UTF_8)), "the statement");
        if (!STATEMENT_TYPE.equals(statement.get("_type")) || !PREDICATE_TYPE.equals(statement.get("predicateType"))) {
            checks.fail(file, "not an in-toto Statement v1 of a review (" + PREDICATE_TYPE + ")");
            return;
        }
        subjects(file, Json.array(statement.get("subject"), "subject"));
        Map<String, Object> log = Json.object(Json.object(statement.get("predicate"), "predicate").get("log"), "log");
        long named = Json.integer(log.get("leafIndex"), "leafIndex");
        String origin = Json.string(log.get("origin"), "origin");
        if (named != leaf) {
            checks.fail(file, "names leaf " + named + ", not the leaf of its file name, " + leaf);
        } else if (checkpoint != null && !checkpoint.origin().equals(origin)) {
            checks.fail(file, "names the log " + origin + ", not the checkpoint's " + checkpoint.origin());
        } else if (!zip.has(ENTRIES + leaf + ".json")) {
            checks.fail(file, "names leaf " + leaf + ", but " + ENTRIES + leaf + ".json is missing");
        } else {
            checks.pass(file, "names leaf " + leaf + " of " + origin + ", shipped as " + ENTRIES + leaf + ".json");
        }
    }

    private void subjects(String file, List<Object> subjects) {
        List<String> strangers = new ArrayList<>();
        for (Object item : subjects) {
            Map<String, Object> subject = Json.object(item, "a subject");
            String name = Json.string(subject.get("name"), "subject name");
            String hex = Json.string(Json.object(subject.get("digest"), "subject digest").get("sha256"), "sha256");
            if (!hex.equals(artifacts.get(name))) {
                strangers.add(name);
            }
        }
        if (subjects.isEmpty() || !strangers.isEmpty()) {
            checks.fail(file, subjects.isEmpty() ? "attests no artifact"
                    : "subjects not in " + BundleChecks.MANIFEST + " at their digests: " + strangers);
        } else {
            checks.pass(file, subjects.size() + " subject(s), each an artifact of " + BundleChecks.MANIFEST
                    + " at its digest");
        }
    }

    private void leaf(String file) throws IOException {
        long index = indexOf(file, ENTRIES, ".json");
        byte[] bytes = zip.bytes(file).orElseThrow();
        Map<String, Object> entry = Json.object(Json.parse(new String(bytes, StandardCharsets.UTF_8)), "the entry");
        if (!"POST".equals(entry.get("method")) || !Long.valueOf(201).equals(entry.get("status"))
                || !(entry.get("path") instanceof String path && path.endsWith("/reviews"))) {
            checks.fail(file, "is not the entry of a review (a POST to …/reviews answered 201)");
            return;
        }
        String proofFile = PROOFS + index + ".json";
        Optional<String> proofText = zip.text(proofFile);
        if (proofText.isEmpty()) {
            checks.fail(file, proofFile + " is missing");
            return;
        }
        if (checkpoint == null) {
            checks.fail(file, "cannot be shown to be in the log: " + BundleChecks.CHECKPOINT + " did not verify");
            return;
        }
        Map<String, Object> proof = Json.object(Json.parse(proofText.get()), proofFile);
        Json.requireMembers(proof, Set.of("index", "size", "hashes"), Set.of(), proofFile);
        if (Json.integer(proof.get("index"), "index") != index
                || Json.integer(proof.get("size"), "size") != checkpoint.size()) {
            checks.fail(file, proofFile + " is not a proof of leaf " + index + " in the checkpoint's tree of "
                    + checkpoint.size());
            return;
        }
        List<byte[]> hashes = new ArrayList<>();
        for (Object hash : Json.array(proof.get("hashes"), "hashes")) {
            hashes.add(Base64.getDecoder().decode(Json.string(hash, "a hash")));
        }
        MerkleProof.verifyInclusion(index, checkpoint.size(), MerkleHash.leaf(bytes), hashes, checkpoint.rootHash());
        checks.pass(file, "included in the checkpoint's tree of " + checkpoint.size() + " (" + proofFile + ")");
    }

    /** The leaf index a file is named by, such as 16 of {@code statements/16.dsse.json}. */
    private static long indexOf(String file, String folder, String suffix) {
        String index = file.substring(folder.length(), file.length() - (file.endsWith(suffix) ? suffix.length() : 0));
        if (!index.matches("(0|[1-9][0-9]{0,17})") || !file.endsWith(suffix)) {
            throw new MalformedInput("is not named by a leaf index: " + folder + "{index}" + suffix);
        }
        return Long.parseLong(index);
    }
}
