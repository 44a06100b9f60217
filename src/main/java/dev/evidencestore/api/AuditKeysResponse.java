package dev.evidencestore.api;

import dev.evidencestore.audit.TrustedKey;

import java.util.List;

/** The public keys audit checkpoints and statements are verified against, the signing key first. */
public record AuditKeysResponse(String origin, List<Key> keys) {

    /** One trusted key: its C2SP key hash, note verifier key, PEM, and whether it signs or is retired. */
    public record Key(String keyId, String name, String verifierKey, String publicKey, String role) {

        static Key of(TrustedKey key) {
            return new Key(key.keyId(), key.key().name(), key.verifierKey(), key.publicKeyPem(), key.role().wire());
        }
    }

    static AuditKeysResponse of(String origin, List<TrustedKey> keys) {
        return new AuditKeysResponse(origin, keys.stream().map(Key::of).toList());
    }
}
