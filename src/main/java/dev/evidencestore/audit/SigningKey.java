package dev.evidencestore.audit;

import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MalformedInput;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads the Ed25519 key that signs audit checkpoints from a PKCS#8 PEM file. The service does not start without one,
 * and a production service does not start with the development key either: its private half is in the repository,
 * so checkpoints signed with it would prove nothing.
 */
final class SigningKey {

    static final String SETTING = "evidence.audit.signing-key-location (EVIDENCE_AUDIT_SIGNING_KEY_LOCATION)";
    /** The public half of dev/keys/audit-ed25519-private.pem, packaged so that production can recognise that key. */
    static final String DEV_PUBLIC_KEY = "dev-keys/audit-ed25519-public.pem";

    private static final String HOW_TO_MAKE_ONE =
            "create a key of your own with `openssl genpkey -algorithm ed25519 -out audit-signing.pem`, keep it "
                    + "secret and point " + SETTING + " at it";

    private SigningKey() {
    }

    static KeyPair load(Optional<String> location, boolean production) {
        if (location.isEmpty() || location.get().isBlank()) {
            throw new IllegalStateException(SETTING + " is not set, so audit checkpoints cannot be signed: "
                    + HOW_TO_MAKE_ONE);
        }
        Path file = Path.of(location.get());
        KeyPair key = read(file);
        if (production && Arrays.equals(key.getPublic().getEncoded(), devPublicKey().getEncoded())) {
            throw new IllegalStateException(SETTING + " points at the development key (" + file + "), whose "
                    + "private half is public in the repository; checkpoints signed with it prove nothing: "
                    + HOW_TO_MAKE_ONE);
        }
        return key;
    }

    private static KeyPair read(Path file) {
        String pem;
        try {
            pem = Files.readString(file, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the audit signing key " + file + " named by " + SETTING, e);
        }
        try {
            PrivateKey privateKey = Ed25519Keys.readPrivatePem(pem);
            KeyPair key = new KeyPair(Ed25519Keys.publicKeyOf(privateKey), privateKey);
            requireWorking(key, file);
            return key;
        } catch (MalformedInput e) {
            throw new IllegalStateException("the audit signing key " + file + " is not an Ed25519 private key "
                    + "in a PKCS#8 PEM file (BEGIN PRIVATE KEY): " + HOW_TO_MAKE_ONE, e);
        }
    }

    /** Signs and verifies once, so a key the service cannot use fails the start, not the first checkpoint. */
    private static void requireWorking(KeyPair key, Path file) {
        byte[] probe = ("audit signing key check " + file).getBytes(StandardCharsets.UTF_8);
        if (!Ed25519Keys.verify(key.getPublic(), probe, Ed25519Keys.sign(key.getPrivate(), probe))) {
            throw new IllegalStateException("the audit signing key " + file + " does not verify its own signature");
        }
    }

    private static PublicKey devPublicKey() {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(DEV_PUBLIC_KEY)) {
            if (in == null) {
                throw new IllegalStateException(DEV_PUBLIC_KEY + " is missing, so the development key cannot be told "
                        + "apart from a real one");
            }
            return Ed25519Keys.readPublicPem(new String(in.readAllBytes(), StandardCharsets.US_ASCII));
        } catch (IOException | MalformedInput e) {
            throw new IllegalStateException("cannot read " + DEV_PUBLIC_KEY, e);
        }
    }
}
