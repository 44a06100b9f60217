package dev.evidencestore.audit;

import dev.evidencestore.EvidenceConfig;
import dev.evidencestore.verify.DsseEnvelope;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MalformedInput;
import dev.evidencestore.verify.NoteKey;
import dev.evidencestore.verify.SignedNote;
import io.quarkus.runtime.LaunchMode;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The log's name and the keys it is verified against, pinned by configuration: the key that signs (which a missing,
 * unusable or development key in production stops at startup) and the retired keys of earlier rotations. A
 * checkpoint is never checked against a key it carries itself: one signed by any other key is a break.
 */
@Startup
@ApplicationScoped
public class TrustedKeys {

    static final String ORIGIN_SETTING = "evidence.audit.origin (EVIDENCE_AUDIT_ORIGIN)";
    static final String TRUSTED_SETTING = "evidence.audit.trusted-keys (EVIDENCE_AUDIT_TRUSTED_KEYS)";

    private final String origin;
    private final PrivateKey signingKey;
    private final List<TrustedKey> keys;

    TrustedKeys(EvidenceConfig config) {
        this.origin = origin(config.audit().origin());
        KeyPair signing = SigningKey.load(config.audit().signingKeyLocation(), !LaunchMode.current().isDevOrTest());
        this.signingKey = signing.getPrivate();
        List<TrustedKey> trusted = new ArrayList<>();
        trusted.add(new TrustedKey(NoteKey.of(origin, signing.getPublic()), TrustedKey.Role.SIGNING));
        for (String retired : config.audit().trustedKeys().orElse(List.of())) {
            TrustedKey key = new TrustedKey(NoteKey.of(origin, Ed25519Keys.readPublicPem(pem(retired))),
                    TrustedKey.Role.RETIRED);
            if (trusted.stream().noneMatch(known -> known.keyId().equals(key.keyId()))) {
                trusted.add(key);
            }
        }
        this.keys = List.copyOf(trusted);
    }

    /** The log's origin, the first line of every checkpoint and the name of every key. */
    public String origin() {
        return origin;
    }

    /** The signing key first, then the retired ones in the order configured. */
    public List<TrustedKey> all() {
        return keys;
    }

    /** The key that signs checkpoints and review statements now. */
    public TrustedKey signing() {
        return keys.get(0);
    }

    /**
     * A DSSE envelope of {@code payload} signed with the signing key; its key ID is the key's hex C2SP key hash, the
     * ID checkpoints and {@code GET /api/v1/audit/keys} name it by.
     */
    public DsseEnvelope signEnvelope(String payloadType, byte[] payload) {
        return DsseEnvelope.sign(payloadType, payload, signing().keyId(), signingKey);
    }

    /** Signs a note body with the signing key. */
    String sign(String body) {
        return SignedNote.sign(body, signing().key(), signingKey);
    }

    /** The trusted key whose signature on {@code note} verifies, if any. */
    Optional<TrustedKey> signerOf(SignedNote note) {
        return keys.stream().filter(key -> note.verify(key.key())).findFirst();
    }

    /** The trusted key with this X.509 encoding (base64), as a checkpoint written before the tree names it. */
    Optional<TrustedKey> byX509(String base64) {
        return keys.stream().filter(key -> key.x509Base64().equals(base64)).findFirst();
    }

    private static String origin(Optional<String> configured) {
        String origin = configured.map(String::strip).orElse("");
        if (origin.isEmpty()) {
            throw new IllegalStateException(ORIGIN_SETTING + " is not set: name the log once and for all, such as "
                    + "evidence.example.com/audit; it is the first line of every checkpoint, and witnesses know the "
                    + "log by it");
        }
        if (!NoteKey.isValidName(origin)) {
            throw new IllegalStateException(ORIGIN_SETTING + " \"" + origin + "\" cannot name a key: it must be "
                    + "printable, without spaces or '+'");
        }
        return origin;
    }

    private static String pem(String entry) {
        if (entry.contains("-----BEGIN")) {
            return entry;
        }
        try {
            return Files.readString(Path.of(entry.strip()), StandardCharsets.US_ASCII);
        } catch (IOException | MalformedInput e) {
            throw new IllegalStateException("cannot read the retired audit key " + entry + " listed in "
                    + TRUSTED_SETTING, e);
        }
    }
}
