package dev.evidencestore.audit;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** Ed25519 signatures with the JDK's own provider; keys and signatures travel as base64. */
final class Ed25519 {

    static final String ALGORITHM = "Ed25519";

    private Ed25519() {
    }

    static String sign(PrivateKey key, byte[] payload) {
        try {
            Signature signer = Signature.getInstance(ALGORITHM);
            signer.initSign(key);
            signer.update(payload);
            return Base64.getEncoder().encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    /** Whether {@code signature} is {@code publicKey}'s signature of {@code payload}; malformed input is not. */
    static boolean verifies(String publicKey, byte[] payload, String signature) {
        try {
            Signature verifier = Signature.getInstance(ALGORITHM);
            verifier.initVerify(publicKey(publicKey));
            verifier.update(payload);
            return verifier.verify(Base64.getDecoder().decode(signature));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    static PublicKey publicKey(String base64) throws GeneralSecurityException {
        return KeyFactory.getInstance(ALGORITHM).generatePublic(
                new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
    }

    static String base64(PublicKey key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    /**
     * The public half of a private key. The JDK has no call for it, but its generator turns the 32 random bytes it
     * draws into exactly this key pair (RFC 8032 section 5.1.5); handing it the private key's seed as the "random"
     * bytes yields the matching public key. {@link SigningKey} checks the result by signing and verifying once.
     */
    static PublicKey publicKeyOf(PrivateKey key) throws GeneralSecurityException {
        byte[] seed = ((EdECPrivateKey) key).getBytes()
                .orElseThrow(() -> new GeneralSecurityException("the private key does not expose its seed"));
        KeyPairGenerator generator = KeyPairGenerator.getInstance(ALGORITHM);
        generator.initialize(NamedParameterSpec.ED25519, new Seed(seed));
        return generator.generateKeyPair().getPublic();
    }

    /** A "random" source that yields one fixed seed. */
    private static final class Seed extends SecureRandom {

        private final byte[] seed;

        Seed(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) {
                throw new IllegalStateException("asked for " + bytes.length + " bytes, not the " + seed.length
                        + " of a seed");
            }
            System.arraycopy(seed, 0, bytes, 0, seed.length);
        }
    }
}
