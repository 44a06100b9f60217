package dev.evidencestore.verify;

import java.security.MessageDigest;
import java.security.PublicKey;
import java.util.List;
import java.util.Optional;

/**
 * The public keys a verifier was given, the only ones it trusts: the log's signing key and, after a rotation, the
 * retired keys whose older statements and checkpoints a bundle may still carry.
 */
final class GivenKeys {

    private final List<PublicKey> keys;

    GivenKeys(List<PublicKey> keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("at least one key is needed");
        }
        this.keys = List.copyOf(keys);
    }

    /** The first given key, named {@code origin}, that signed {@code note}. */
    Optional<NoteKey> signerOf(SignedNote note, String origin) {
        return keys.stream().map(key -> NoteKey.of(origin, key))
                .filter(key -> !note.signaturesBy(key).isEmpty() && note.verify(key)).findFirst();
    }

    /** Whether a given key signed {@code envelope}. */
    boolean signed(DsseEnvelope envelope) {
        return keys.stream().anyMatch(envelope::verify);
    }

    boolean includes(PublicKey other) {
        return keys.stream().anyMatch(key -> MessageDigest.isEqual(key.getEncoded(), other.getEncoded()));
    }

    /** The key IDs the given keys have under {@code origin}, for messages. */
    String idsFor(String origin) {
        return String.join(", ", keys.stream().map(key -> NoteKey.of(origin, key).keyIdHex()).toList());
    }
}
