package dev.evidencestore.verify;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.InvalidKeyException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.SignatureException;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Ed25519 keys with the JDK alone: PEM reading and writing (SubjectPublicKeyInfo, PKCS#8), the raw 32-byte public
 * key of RFC 8032 that signed notes hash into their key IDs, signing and verifying.
 */
public final class Ed25519Keys {

    /** Raw keys and seeds are 32 bytes, signatures 64. */
    public static final int KEY_SIZE = 32;
    public static final int SIGNATURE_SIZE = 64;

    /**
     * The DER of an Ed25519 SubjectPublicKeyInfo before its key: SEQUENCE { SEQUENCE { OID 1.3.101.112 }, BIT STRING
     * (33 bytes, no unused bits) }. RFC 8410 fixes it, so the key is the last 32 of the 44 bytes.
     */
    private static final byte[] SPKI_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");
    /** The same for a PKCS#8 v1 private key: SEQUENCE { INTEGER 0, SEQUENCE { OID }, OCTET STRING { OCTET STRING } }. */
    private static final byte[] PKCS8_PREFIX = HexFormat.of().parseHex("302e020100300506032b657004220420");
    private static final String ALGORITHM = "Ed25519";

    private Ed25519Keys() {
    }

    /** A public key from PEM ("BEGIN PUBLIC KEY", an X.509 SubjectPublicKeyInfo), as openssl writes it. */
    public static PublicKey readPublicPem(String pem) {
        byte[] der = pemBody(pem, "PUBLIC KEY");
        if (der.length != SPKI_PREFIX.length + KEY_SIZE || !startsWith(der, SPKI_PREFIX)) {
            throw new MalformedInput("the PEM public key is not an Ed25519 key");
        }
        try {
            return keyFactory().generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new MalformedInput("the PEM public key is not a valid Ed25519 key", e);
        }
    }

    /** A private key from PEM ("BEGIN PRIVATE KEY", PKCS#8), as {@code openssl genpkey -algorithm ed25519} writes. */
    public static PrivateKey readPrivatePem(String pem) {
        byte[] der = pemBody(pem, "PRIVATE KEY");
        try {
            PrivateKey key = keyFactory().generatePrivate(new PKCS8EncodedKeySpec(der));
            if (!(key instanceof EdECPrivateKey)) {
                throw new MalformedInput("the PEM private key is not an Ed25519 key");
            }
            return key;
        } catch (GeneralSecurityException e) {
            throw new MalformedInput("the PEM private key is not an Ed25519 key", e);
        }
    }

    public static String publicPem(PublicKey key) {
        return pem("PUBLIC KEY", concat(SPKI_PREFIX, rawPublicKey(key)));
    }

    public static String privatePem(PrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    /** The 32-byte RFC 8032 encoding of a public key: the last bytes of its X.509 encoding. */
    public static byte[] rawPublicKey(PublicKey key) {
        byte[] der = key.getEncoded();
        if (der == null || der.length != SPKI_PREFIX.length + KEY_SIZE || !startsWith(der, SPKI_PREFIX)) {
            throw new IllegalArgumentException("not an Ed25519 public key: " + key.getAlgorithm());
        }
        return Arrays.copyOfRange(der, SPKI_PREFIX.length, der.length);
    }

    /** The public key of a raw 32-byte encoding. */
    public static PublicKey publicKey(byte[] raw) {
        if (raw == null || raw.length != KEY_SIZE) {
            throw new MalformedInput("an Ed25519 public key is " + KEY_SIZE + " bytes, not "
                    + (raw == null ? "none" : raw.length));
        }
        try {
            return keyFactory().generatePublic(new X509EncodedKeySpec(concat(SPKI_PREFIX, raw)));
        } catch (GeneralSecurityException e) {
            throw new MalformedInput("not a valid Ed25519 public key", e);
        }
    }

    /** The private key of a 32-byte RFC 8032 seed (what PKCS#8 holds, and what Go's key strings carry). */
    public static PrivateKey privateKey(byte[] seed) {
        if (seed == null || seed.length != KEY_SIZE) {
            throw new MalformedInput("an Ed25519 seed is " + KEY_SIZE + " bytes");
        }
        try {
            return keyFactory().generatePrivate(new PKCS8EncodedKeySpec(concat(PKCS8_PREFIX, seed)));
        } catch (GeneralSecurityException e) {
            throw new MalformedInput("not a valid Ed25519 seed", e);
        }
    }

    /**
     * The public key of a private key. The JDK has no call for this; its key pair generator derives the public key
     * from the seed it draws, so it is handed a source that yields exactly this key's seed. The pair is then checked
     * by a signature, so a provider that drew its seed differently fails here instead of naming the wrong key.
     */
    public static PublicKey publicKeyOf(PrivateKey key) {
        if (!(key instanceof EdECPrivateKey)) {
            throw new IllegalArgumentException("not an Ed25519 private key: " + key.getAlgorithm());
        }
        byte[] seed = ((EdECPrivateKey) key).getBytes()
                .orElseThrow(() -> new IllegalArgumentException("the private key does not reveal its seed"));
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance(ALGORITHM);
            generator.initialize(NamedParameterSpec.ED25519, new FixedSeed(seed));
            KeyPair pair = generator.generateKeyPair();
            byte[] probe = "public key derivation".getBytes(StandardCharsets.US_ASCII);
            if (!verify(pair.getPublic(), probe, sign(key, probe))) {
                throw new IllegalStateException("the JDK derived a public key that does not match the private key");
            }
            return pair.getPublic();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 is not available", e);
        }
    }

    public static byte[] sign(PrivateKey key, byte[] message) {
        try {
            Signature signature = Signature.getInstance(ALGORITHM);
            signature.initSign(key);
            signature.update(message);
            return signature.sign();
        } catch (InvalidKeyException e) {
            throw new IllegalArgumentException("not an Ed25519 private key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 signing failed", e);
        }
    }

    /** Whether the signature is this key's over the message; a signature of the wrong length is simply false. */
    public static boolean verify(PublicKey key, byte[] message, byte[] signatureBytes) {
        if (signatureBytes == null || signatureBytes.length != SIGNATURE_SIZE) {
            return false;
        }
        try {
            Signature signature = Signature.getInstance(ALGORITHM);
            signature.initVerify(key);
            signature.update(message);
            return signature.verify(signatureBytes);
        } catch (SignatureException e) {
            return false;
        } catch (InvalidKeyException e) {
            throw new IllegalArgumentException("not an Ed25519 public key", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Ed25519 verification failed to run", e);
        }
    }

    private static byte[] pemBody(String pem, String label) {
        String begin = "-----BEGIN " + label + "-----";
        String end = "-----END " + label + "-----";
        String text = pem.strip();
        if (!text.startsWith(begin) || !text.endsWith(end) || text.length() < begin.length() + end.length()) {
            throw new MalformedInput("not a PEM " + label + ": it must lie between " + begin + " and " + end);
        }
        String body = text.substring(begin.length(), text.length() - end.length()).replaceAll("[\\r\\n]", "");
        try {
            return Base64.getDecoder().decode(body);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput("the PEM " + label + " is not valid base64", e);
        }
    }

    private static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    private static KeyFactory keyFactory() throws GeneralSecurityException {
        return KeyFactory.getInstance(ALGORITHM);
    }

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length
                && Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** A random source that yields one given seed: how the key pair generator is made to derive a known key. */
    private static final class FixedSeed extends SecureRandom {

        private static final long serialVersionUID = 1L;
        private final byte[] seed;

        FixedSeed(byte[] seed) {
            this.seed = seed.clone();
        }

        @Override
        public void nextBytes(byte[] bytes) {
            if (bytes.length != seed.length) {
                throw new IllegalStateException("the key pair generator asked for " + bytes.length + " bytes");
            }
            System.arraycopy(seed, 0, bytes, 0, seed.length);
        }
    }
}
