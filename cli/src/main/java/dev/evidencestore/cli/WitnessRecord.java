package dev.evidencestore.cli;

import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Optional;

/**
 * What this machine remembers of one log of one service: the pinned key (how and when it was pinned) and the
 * latest checkpoint it saw, byte for byte as the service served it.
 */
record WitnessRecord(Path directory, String service, String origin, Optional<String> keyPem, String pinnedHow,
        Optional<byte[]> note, String rememberedAt) {

    Optional<PublicKey> key() {
        return keyPem.map(Ed25519Keys::readPublicPem);
    }

    Optional<String> keyId() {
        return key().map(key -> NoteKey.of(origin, key).keyIdHex());
    }

    Optional<Checkpoint> checkpoint() {
        return note.map(bytes -> Checkpoint.parse(SignedNote.parse(bytes).body()));
    }

    Optional<String> noteText() {
        return note.map(bytes -> new String(bytes, StandardCharsets.UTF_8));
    }
}
