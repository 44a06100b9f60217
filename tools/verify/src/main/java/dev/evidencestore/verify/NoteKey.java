package dev.evidencestore.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * An Ed25519 key of C2SP signed notes: a key name and a public key, which together give the 4-byte key ID a
 * signature line carries, SHA-256(name || 0x0A || 0x01 || 32-byte key)[:4]. Its text form is the verifier key of
 * golang.org/x/mod/sumdb/note, {@code name+hexkeyid+base64(0x01 || key)}.
 */
public final class NoteKey {

    /** The signature type byte of Ed25519 in signed-note. */
    static final byte ED25519 = 0x01;

    private final String name;
    private final byte[] rawKey;
    private final byte[] keyId;
    private final PublicKey publicKey;

    private NoteKey(String name, byte[] rawKey) {
        requireName(name);
        this.name = name;
        this.rawKey = rawKey.clone();
        this.keyId = keyId(name, rawKey);
        this.publicKey = Ed25519Keys.publicKey(rawKey);
    }

    public static NoteKey of(String name, PublicKey key) {
        return new NoteKey(name, Ed25519Keys.rawPublicKey(key));
    }

    public static NoteKey of(String name, byte[] rawPublicKey) {
        return new NoteKey(name, rawPublicKey);
    }

    /** A verifier key string, checked strictly: its key ID must be the one its name and key give. */
    public static NoteKey parse(String verifierKey) {
        // neither name nor key ID may hold a plus sign, but the base64 key can
        String[] parts = verifierKey.split("\\+", 3);
        if (parts.length != 3) {
            throw new MalformedInput("a verifier key is name+keyid+key, not \"" + verifierKey + "\"");
        }
        if (!parts[1].matches("[0-9a-f]{8}")) {
            throw new MalformedInput("the key ID of verifier key \"" + verifierKey + "\" is not 8 lowercase hex digits");
        }
        byte[] typedKey = NoteSignature.decodeBase64(parts[2], "the key of verifier key \"" + verifierKey + "\"");
        if (typedKey.length != 1 + Ed25519Keys.KEY_SIZE || typedKey[0] != ED25519) {
            throw new MalformedInput("verifier key \"" + verifierKey + "\" is not an Ed25519 key");
        }
        if (!isValidName(parts[0])) {
            throw new MalformedInput("verifier key \"" + verifierKey + "\" has an invalid name");
        }
        NoteKey key = new NoteKey(parts[0], Arrays.copyOfRange(typedKey, 1, typedKey.length));
        if (!key.keyIdHex().equals(parts[1])) {
            throw new MalformedInput("verifier key \"" + verifierKey + "\" names key ID " + parts[1] + ", its name and key"
                    + " give " + key.keyIdHex());
        }
        return key;
    }

    /** SHA-256(name || 0x0A || 0x01 || key)[:4], the key ID signed-note recommends and every known signer uses. */
    public static byte[] keyId(String name, byte[] rawPublicKey) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(name.getBytes(StandardCharsets.UTF_8));
            sha256.update((byte) '\n');
            sha256.update(ED25519);
            sha256.update(rawPublicKey);
            return Arrays.copyOf(sha256.digest(), 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }

    /**
     * A key name as signed-note allows it: not empty, no Unicode space (Go's unicode.IsSpace: the white space
     * controls, NEL, and the separators Zs, Zl, Zp) and no plus, since the name is delimited by both.
     */
    public static boolean isValidName(String name) {
        if (name == null || name.isEmpty() || name.indexOf('+') >= 0) {
            return false;
        }
        return name.codePoints().noneMatch(NoteKey::isUnicodeSpace);
    }

    static boolean isUnicodeSpace(int codePoint) {
        return codePoint == '\t' || codePoint == '\n' || codePoint == 0x0B || codePoint == '\f' || codePoint == '\r'
                || codePoint == 0x85 || Character.isSpaceChar(codePoint);
    }

    public String name() {
        return name;
    }

    /** The 32-byte RFC 8032 public key. */
    public byte[] rawPublicKey() {
        return rawKey.clone();
    }

    public PublicKey publicKey() {
        return publicKey;
    }

    public byte[] keyId() {
        return keyId.clone();
    }

    public String keyIdHex() {
        return HexFormat.of().formatHex(keyId);
    }

    /** name+hexkeyid+base64(0x01 || key). */
    public String verifierKey() {
        byte[] typed = new byte[1 + rawKey.length];
        typed[0] = ED25519;
        System.arraycopy(rawKey, 0, typed, 1, rawKey.length);
        return name + "+" + keyIdHex() + "+" + Base64.getEncoder().encodeToString(typed);
    }

    private static void requireName(String name) {
        if (!isValidName(name)) {
            throw new IllegalArgumentException("\"" + name + "\" is not a key name: it must be non-empty, without"
                    + " spaces or plus signs");
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NoteKey && name.equals(((NoteKey) other).name)
                && Arrays.equals(rawKey, ((NoteKey) other).rawKey);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(rawKey);
    }

    @Override
    public String toString() {
        return verifierKey();
    }
}
