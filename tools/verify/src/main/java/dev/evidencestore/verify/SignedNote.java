package dev.evidencestore.verify;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A C2SP signed note: a text ending in a newline, a blank line, and one or more signature lines. Only Ed25519
 * signatures (type 0x01) are made and checked here; lines by other keys are kept, listed and otherwise ignored, as
 * the spec requires, so a note cosigned by witnesses still reads.
 */
public final class SignedNote {

    /**
     * The most signature lines a note may carry. The spec asks readers to take at least 16 and to bound the number;
     * 100 is golang.org/x/mod/sumdb/note's bound, so a note one of them reads the other reads too.
     */
    public static final int MAX_SIGNATURES = 100;

    private final String body;
    private final List<NoteSignature> signatures;

    private SignedNote(String body, List<NoteSignature> signatures) {
        this.body = body;
        this.signatures = List.copyOf(signatures);
    }

    /** The note of this body with one Ed25519 signature by the key of this name. */
    public static String sign(String body, String keyName, PrivateKey key) {
        return sign(body, NoteKey.of(keyName, Ed25519Keys.publicKeyOf(key)), key);
    }

    /**
     * The note of this body with one signature by {@code privateKey}, named as {@code key}. The signature is checked
     * against the named key before it is returned, so a private key that is not the named key's fails here and not
     * in a verifier.
     */
    public static String sign(String body, NoteKey key, PrivateKey privateKey) {
        requireText(body);
        byte[] message = body.getBytes(StandardCharsets.UTF_8);
        byte[] signature = Ed25519Keys.sign(privateKey, message);
        if (!Ed25519Keys.verify(key.publicKey(), message, signature)) {
            throw new IllegalArgumentException("the private key is not the key of " + key.verifierKey());
        }
        return body + "\n" + new NoteSignature(key.name(), key.keyId(), signature).line();
    }

    /** Reads a note from its bytes, which must be UTF-8. */
    public static SignedNote parse(byte[] note) {
        try {
            return parse(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(note)).toString());
        } catch (CharacterCodingException e) {
            throw new MalformedInput("the note is not valid UTF-8", e);
        }
    }

    /** Reads a note strictly: its text, the blank line, and only well-formed signature lines after it. */
    public static SignedNote parse(String note) {
        requireCharacters(note, "the note");
        // the text may hold blank lines itself; the last one separates it from the signatures
        int separator = note.lastIndexOf("\n\n");
        if (separator < 0) {
            throw new MalformedInput("the note has no blank line before its signatures");
        }
        String body = note.substring(0, separator + 1);
        String block = note.substring(separator + 2);
        if (block.isEmpty()) {
            throw new MalformedInput("the note has no signature lines");
        }
        if (!block.endsWith("\n")) {
            throw new MalformedInput("the note's last signature line does not end with a newline");
        }
        String[] lines = block.substring(0, block.length() - 1).split("\n", -1);
        if (lines.length > MAX_SIGNATURES) {
            throw new MalformedInput("the note has " + lines.length + " signature lines, more than " + MAX_SIGNATURES);
        }
        List<NoteSignature> signatures = new ArrayList<>(lines.length);
        for (String line : lines) {
            signatures.add(NoteSignature.parseLine(line));
        }
        return new SignedNote(body, signatures);
    }

    /** The signed text, with its final newline and without the blank line. */
    public String body() {
        return body;
    }

    /** Every signature line, in order, whoever signed it. */
    public List<NoteSignature> signatures() {
        return signatures;
    }

    public List<NoteSignature> signaturesBy(NoteKey key) {
        return signatures.stream().filter(signature -> signature.isBy(key)).toList();
    }

    /**
     * Whether this key signed the note: there is a line with its name and key ID, and every such line verifies. A
     * line of a known key that fails is a forgery or a corruption, and the spec has the note rejected for it rather
     * than saved by another line.
     */
    public boolean verify(NoteKey key) {
        List<NoteSignature> by = signaturesBy(key);
        byte[] message = body.getBytes(StandardCharsets.UTF_8);
        return !by.isEmpty() && by.stream()
                .allMatch(signature -> Ed25519Keys.verify(key.publicKey(), message, signature.signature()));
    }

    /** The note's text form, as read or signed. */
    public String text() {
        StringBuilder text = new StringBuilder(body).append('\n');
        signatures.forEach(signature -> text.append(signature.line()));
        return text.toString();
    }

    /** A note's text ends in a newline and holds no ASCII control character (below U+0020) but newlines. */
    static void requireText(String body) {
        requireCharacters(body, "the note text");
        if (body.isEmpty() || !body.endsWith("\n")) {
            throw new MalformedInput("the note text must end with a newline");
        }
    }

    private static void requireCharacters(String text, String what) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 && c != '\n') {
                throw new MalformedInput(what + " holds the control character " + String.format("U+%04X", (int) c)
                        + " at offset " + i);
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new MalformedInput(what + " holds a lone surrogate at offset " + i + ": it has no UTF-8 form");
            }
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SignedNote && body.equals(((SignedNote) other).body)
                && signatures.equals(((SignedNote) other).signatures);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(new Object[] {body, signatures});
    }

    @Override
    public String toString() {
        return text();
    }
}
