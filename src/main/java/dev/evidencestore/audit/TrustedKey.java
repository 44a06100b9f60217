package dev.evidencestore.audit;

import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.NoteKey;

import java.util.Base64;

/**
 * A public key checkpoints and statements are verified against: the configured signing key, or a retired key
 * listed in {@code evidence.audit.trusted-keys}. Its name is the log's origin, so its C2SP key hash names it.
 */
public record TrustedKey(NoteKey key, Role role) {

    /** Whether the key signs new checkpoints or only vouches for old ones. */
    public enum Role {
        SIGNING, RETIRED;

        public String wire() {
            return name().toLowerCase();
        }
    }

    /** The hex C2SP key hash. */
    public String keyId() {
        return key.keyIdHex();
    }

    /** The verifier key string of golang.org/x/mod/sumdb/note: {@code name+keyid+base64(0x01 || key)}. */
    public String verifierKey() {
        return key.verifierKey();
    }

    public String publicKeyPem() {
        return Ed25519Keys.publicPem(key.publicKey());
    }

    /** The X.509 encoding in base64, as checkpoints written before the Merkle tree carry their key. */
    String x509Base64() {
        return Base64.getEncoder().encodeToString(key.publicKey().getEncoded());
    }
}
