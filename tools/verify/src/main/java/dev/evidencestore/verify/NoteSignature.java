package dev.evidencestore.verify;

import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

/**
 * One signature line of a signed note, {@code — <key name> base64(key ID || signature)}, as read: a signature by a
 * key the reader may not know, so it holds bytes, not a verdict.
 */
public final class NoteSignature {

    /** The em dash (U+2014) and space that begin every signature line. */
    static final String LINE_START = "\u2014 ";

    private final String keyName;
    private final byte[] keyId;
    private final byte[] signature;

    NoteSignature(String keyName, byte[] keyId, byte[] signature) {
        this.keyName = keyName;
        this.keyId = keyId.clone();
        this.signature = signature.clone();
    }

    /** Reads one line, without its newline. */
    static NoteSignature parseLine(String line) {
        if (!line.startsWith(LINE_START)) {
            throw new MalformedInput("signature line \"" + line + "\" does not start with an em dash and a space");
        }
        int space = line.indexOf(' ', LINE_START.length());
        if (space < 0) {
            throw new MalformedInput("signature line \"" + line + "\" has no space between key name and signature");
        }
        String name = line.substring(LINE_START.length(), space);
        if (!NoteKey.isValidName(name)) {
            throw new MalformedInput("signature line \"" + line + "\" has an invalid key name");
        }
        byte[] decoded = decodeBase64(line.substring(space + 1), "the signature of line \"" + line + "\"");
        if (decoded.length < 5) {
            throw new MalformedInput("signature line \"" + line + "\" holds " + decoded.length
                    + " bytes, less than a key ID and a signature");
        }
        return new NoteSignature(name, Arrays.copyOf(decoded, 4), Arrays.copyOfRange(decoded, 4, decoded.length));
    }

    /**
     * Standard base64 with padding, and only its one encoding of the bytes: the JDK decoder would also take missing
     * padding and nonzero unused bits, which would give one signature several texts.
     */
    static byte[] decodeBase64(String text, String what) {
        byte[] decoded;
        try {
            decoded = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(what + " is not valid base64", e);
        }
        if (!Base64.getEncoder().encodeToString(decoded).equals(text)) {
            throw new MalformedInput(what + " is not in canonical padded base64");
        }
        return decoded;
    }

    public String keyName() {
        return keyName;
    }

    public byte[] keyId() {
        return keyId.clone();
    }

    public String keyIdHex() {
        return HexFormat.of().formatHex(keyId);
    }

    /** The signature bytes after the key ID. */
    public byte[] signature() {
        return signature.clone();
    }

    /** Whether the line names this key: the same key name and the same key ID. */
    public boolean isBy(NoteKey key) {
        return keyName.equals(key.name()) && Arrays.equals(keyId, key.keyId());
    }

    /** The line, with its newline. */
    public String line() {
        byte[] both = Arrays.copyOf(keyId, keyId.length + signature.length);
        System.arraycopy(signature, 0, both, keyId.length, signature.length);
        return LINE_START + keyName + " " + Base64.getEncoder().encodeToString(both) + "\n";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof NoteSignature && keyName.equals(((NoteSignature) other).keyName)
                && Arrays.equals(keyId, ((NoteSignature) other).keyId)
                && Arrays.equals(signature, ((NoteSignature) other).signature);
    }

    @Override
    public int hashCode() {
        return keyName.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return line().strip();
    }
}
