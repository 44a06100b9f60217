package dev.evidencestore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MerkleProof;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.ProofFailure;
import dev.evidencestore.verify.SignedNote;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The witness every command runs before it trusts a service, as Go's command does with its checksum database:
 * fetch the latest checkpoint, check its signature against the pinned key, and check with a consistency proof that
 * the log is an extension of the last checkpoint remembered for this service and origin; then remember the new one.
 * Anything else is a {@link LogInconsistency}, exit 5, naming both checkpoints.
 */
final class Witness {

    private final ServiceClient client;
    private final WitnessState state;
    private final PrintStream notices;

    Witness(ServiceClient client, WitnessState state, PrintStream notices) {
        this.client = client;
        this.state = state;
        this.notices = notices;
    }

    /** Checks the service's log; {@code givenKey} is a key pinned explicitly (--key). */
    void observe(Optional<Path> givenKey) {
        Optional<byte[]> served = latestNote();
        if (served.isEmpty()) {
            return;
        }
        byte[] noteBytes = served.get();
        SignedNote note;
        Checkpoint latest;
        try {
            note = SignedNote.parse(noteBytes);
            latest = Checkpoint.parse(note.body());
        } catch (IllegalArgumentException e) {
            throw new LogInconsistency("the service at " + client.base() + " serves a checkpoint that is not a signed"
                    + " checkpoint (" + e.getMessage() + "):\n" + text(noteBytes));
        }
        Optional<WitnessRecord> record = state.load(client.base(), latest.origin());
        PublicKey key = pinnedKey(record, givenKey, latest.origin());
        NoteKey noteKey = NoteKey.of(latest.origin(), key);
        if (!note.verify(noteKey)) {
            throw new LogInconsistency("the latest checkpoint of " + latest.origin() + " at " + client.base()
                    + " is not signed by the pinned key " + noteKey.keyIdHex() + ": the log was re-signed with"
                    + " another key.\nserved now:\n" + text(noteBytes)
                    + record.flatMap(WitnessRecord::noteText).map(seen -> "remembered:\n" + seen).orElse(""));
        }
        Optional<byte[]> remembered = record.flatMap(WitnessRecord::note);
        if (remembered.isPresent()) {
            requireExtension(Checkpoint.parse(SignedNote.parse(remembered.get()).body()), latest, remembered.get(),
                    noteBytes);
        }
        remember(latest, noteBytes);
    }

    private Optional<byte[]> latestNote() {
        try {
            return Optional.of(client.send(Call.get("api/v1/audit/checkpoint").anonymous()
                    .header("Accept", "text/plain"), body -> body.readAllBytes()).body());
        } catch (ServiceRefusal refusal) {
            if (refusal.problem().status() == 404) {
                // a service that has signed no checkpoint yet has nothing to witness
                return Optional.empty();
            }
            throw refusal;
        }
    }

    private PublicKey pinnedKey(Optional<WitnessRecord> record, Optional<Path> givenKey, String origin) {
        Optional<PublicKey> pinned = record.flatMap(WitnessRecord::key);
        Optional<PublicKey> given = givenKey.map(Witness::readKey);
        if (pinned.isPresent()) {
            if (given.isPresent() && !same(given.get(), pinned.get())) {
                throw new LogInconsistency("the key given with --key (" + NoteKey.of(origin, given.get()).keyIdHex()
                        + ") is not the key pinned for " + origin + " at " + client.base() + " ("
                        + NoteKey.of(origin, pinned.get()).keyIdHex() + "). If the operator announced a new key,"
                        + " pin it with: evidence log pin --url " + client.base() + " --origin " + origin
                        + " --key NEW.pem");
            }
            return pinned.get();
        }
        if (given.isPresent()) {
            state.pin(client.base(), origin, given.get(), "given with --key");
            notices.println("evidence: pinned the key given with --key ("
                    + NoteKey.of(origin, given.get()).verifierKey() + ") for the log " + origin + " at "
                    + client.base());
            return given.get();
        }
        PublicKey listed = signingKey(origin);
        state.pin(client.base(), origin, listed, "on first use");
        notices.println("evidence: first use of the log " + origin + " at " + client.base() + ": pinned the key it"
                + " lists, " + NoteKey.of(origin, listed).verifierKey() + ". Compare it with the key your operator"
                + " published; to pin that one instead, run: evidence log pin --url " + client.base() + " --origin "
                + origin + " --key PUBLIC.pem");
        return listed;
    }

    private PublicKey signingKey(String origin) {
        JsonNode keys = Json.read(client.send(Call.get("api/v1/audit/keys").anonymous()).body());
        for (JsonNode key : keys.path("keys")) {
            if ("signing".equals(key.path("role").asText())) {
                return Ed25519Keys.readPublicPem(key.path("publicKey").asText());
            }
        }
        throw new LogInconsistency("the service at " + client.base() + " lists no signing key for " + origin);
    }

    private void requireExtension(Checkpoint seen, Checkpoint latest, byte[] seenNote, byte[] latestNote) {
        String both = "\nremembered:\n" + text(seenNote) + "served now:\n" + text(latestNote);
        if (latest.size() < seen.size()) {
            throw new LogInconsistency("the log " + latest.origin() + " at " + client.base() + " has "
                    + latest.size() + " entries, fewer than the " + seen.size() + " this machine saw: entries were"
                    + " removed, or the database was restored from a backup." + both);
        }
        if (seen.size() == 0) {
            return;
        }
        List<byte[]> proof = latest.size() == seen.size() ? List.of() : consistencyProof(seen.size(), latest.size());
        try {
            MerkleProof.verifyConsistency(seen.size(), latest.size(), seen.rootHash(), latest.rootHash(), proof);
        } catch (ProofFailure e) {
            throw new LogInconsistency("the log " + latest.origin() + " at " + client.base() + " is not a consistent"
                    + " extension of the checkpoint this machine remembers: its first " + seen.size() + " entries"
                    + " were rewritten (" + e.getMessage() + ")." + both);
        }
    }

    private List<byte[]> consistencyProof(long from, long to) {
        JsonNode answer = Json.read(client.send(Call.get("api/v1/audit/proof/consistency?from=" + from + "&to=" + to)
                .anonymous()).body());
        List<byte[]> hashes = new ArrayList<>();
        for (JsonNode hash : answer.path("hashes")) {
            try {
                hashes.add(Base64.getDecoder().decode(hash.asText()));
            } catch (IllegalArgumentException e) {
                throw new LogInconsistency("the consistency proof from " + from + " to " + to + " holds a hash that"
                        + " is not base64: " + hash.asText());
            }
        }
        return hashes;
    }

    private void remember(Checkpoint latest, byte[] note) {
        try {
            state.remember(client.base(), latest.origin(), note);
        } catch (RuntimeException e) {
            notices.println("evidence: could not remember the checkpoint under " + state.root() + ": "
                    + e.getMessage());
        }
    }

    private static PublicKey readKey(Path file) {
        try {
            return Ed25519Keys.readPublicPem(Files.readString(file));
        } catch (IOException | IllegalArgumentException e) {
            throw CommandFailure.usage("cannot read the public key " + file + ": " + e.getMessage());
        }
    }

    private static boolean same(PublicKey a, PublicKey b) {
        return MessageDigest.isEqual(a.getEncoded(), b.getEncoded());
    }

    private static String text(byte[] note) {
        String text = new String(note, StandardCharsets.UTF_8);
        return text.endsWith("\n") ? text : text + "\n";
    }
}
