package dev.evidencestore.verify;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signed notes against the published keys and notes of golang.org/x/mod/sumdb/note's tests (note_test.go, BSD-3-Clause;
 * the keys, texts and signatures are data): the same key IDs, the same signature bytes, the same rejections.
 */
class SignedNoteTest {

    static final String PETER_KEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW";
    /** Go's signer key string: PRIVATE+KEY+name+keyid+base64(0x01 || seed). */
    static final String PETER_PRIVATE = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz";
    static final String ENOCH_KEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop";
    static final String TEXT = "If you think cryptography is the answer to your problem,\n"
            + "then you don't know what your problem is.\n";
    static final String PETER_SIG = "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXg"
            + "KvqfqdngotpRZb6KE6RyyBwJnAM=\n";
    static final String ENOCH_SIG = "\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOT"
            + "GwnWLox33WWd1RvMc+QQ=\n";

    static PrivateKey peterPrivateKey() {
        // the base64 key may itself hold plus signs: it is what follows the fourth
        byte[] typed = Base64.getDecoder().decode(PETER_PRIVATE.split("\\+", 5)[4]);
        assertEquals(0x01, typed[0]);
        return Ed25519Keys.privateKey(Arrays.copyOfRange(typed, 1, typed.length));
    }

    @Test
    void aVerifierKeyReadsAndWritesBack() {
        NoteKey peter = NoteKey.parse(PETER_KEY);
        assertEquals("PeterNeumann", peter.name());
        assertEquals("c74f20a3", peter.keyIdHex());
        assertEquals(PETER_KEY, peter.verifierKey());
        assertEquals(peter, NoteKey.of("PeterNeumann", peter.publicKey()));
        assertEquals(ENOCH_KEY, NoteKey.parse(ENOCH_KEY).verifierKey());
    }

    @Test
    void aVerifierKeyWhoseBase64HoldsAPlusSignReads() {
        for (int seed = 0; seed < 256; seed++) {
            byte[] raw = new byte[Ed25519Keys.KEY_SIZE];
            Arrays.fill(raw, (byte) seed);
            NoteKey key = NoteKey.of("log.example", Ed25519Keys.publicKeyOf(Ed25519Keys.privateKey(raw)));
            if (key.verifierKey().split("\\+", 3)[2].contains("+")) {
                assertEquals(key, NoteKey.parse(key.verifierKey()));
                return;
            }
        }
        throw new AssertionError("no seed gave a key whose base64 holds a plus sign");
    }

    @Test
    void everyManglingOfAVerifierKeyIsRefused() {
        byte[] key = PETER_KEY.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i <= key.length; i++) {
            for (int j = i + 1; j <= key.length; j++) {
                if (i != 0 || j != key.length) {
                    String part = new String(key, i, j - i, StandardCharsets.US_ASCII);
                    assertThrows(MalformedInput.class, () -> NoteKey.parse(part), part);
                }
            }
        }
        for (int i = 0; i < key.length; i++) {
            byte[] changed = key.clone();
            changed[i]++;
            String mangled = new String(changed, StandardCharsets.US_ASCII);
            assertThrows(MalformedInput.class, () -> NoteKey.parse(mangled), mangled);
        }
        // a key of the wrong length and one of an unknown algorithm, each with the key ID that fits it
        assertThrows(MalformedInput.class, () -> NoteKey.parse(
                "PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY=="));
        assertThrows(MalformedInput.class, () -> NoteKey.parse(
                "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"));
    }

    @Test
    void signingGivesThePublishedNoteByteForByte() {
        PrivateKey key = peterPrivateKey();
        assertEquals(NoteKey.parse(PETER_KEY), NoteKey.of("PeterNeumann", Ed25519Keys.publicKeyOf(key)));
        assertEquals(TEXT + "\n" + PETER_SIG, SignedNote.sign(TEXT, "PeterNeumann", key));
        assertEquals(TEXT + "\n" + PETER_SIG, SignedNote.sign(TEXT, NoteKey.parse(PETER_KEY), key));
    }

    @Test
    void signingNeedsANoteTextAndTheNamedKeysPrivateKey() {
        PrivateKey key = peterPrivateKey();
        assertThrows(MalformedInput.class, () -> SignedNote.sign("abc", "PeterNeumann", key));
        assertThrows(MalformedInput.class, () -> SignedNote.sign("a\tb\n", "PeterNeumann", key));
        assertThrows(IllegalArgumentException.class, () -> SignedNote.sign(TEXT, "a+b", key));
        assertThrows(IllegalArgumentException.class, () -> SignedNote.sign(TEXT, NoteKey.parse(ENOCH_KEY), key));
    }

    @Test
    void aNoteVerifiesForEachKeyThatSignedIt() {
        SignedNote note = SignedNote.parse(TEXT + "\n" + PETER_SIG + ENOCH_SIG);
        assertEquals(TEXT, note.body());
        assertEquals(2, note.signatures().size());
        assertEquals("EnochRoot", note.signatures().get(1).keyName());
        assertEquals("af0cfe78", note.signatures().get(1).keyIdHex());
        assertTrue(note.verify(NoteKey.parse(PETER_KEY)));
        assertTrue(note.verify(NoteKey.parse(ENOCH_KEY)));
        assertEquals(TEXT + "\n" + PETER_SIG + ENOCH_SIG, note.text());
    }

    @Test
    void aKeyThatDidNotSignDoesNotVerify() {
        SignedNote note = SignedNote.parse(TEXT + "\n" + PETER_SIG);
        assertFalse(note.verify(NoteKey.parse(ENOCH_KEY)));
        // the same key under another name, and a line whose key ID is not the key's
        SignedNote misnamed = SignedNote.parse(TEXT + "\n" + PETER_SIG.replace("PeterNeumann", "CarmenSandiego"));
        assertFalse(misnamed.verify(NoteKey.parse(PETER_KEY)));
        SignedNote wrongId = SignedNote.parse(TEXT + "\n" + PETER_SIG.replace("x08g", "xxxx"));
        assertFalse(wrongId.verify(NoteKey.parse(PETER_KEY)));
        assertEquals(List.of(), wrongId.signaturesBy(NoteKey.parse(PETER_KEY)));
    }

    @Test
    void aBadSignatureOfAKnownKeyFailsTheNote() {
        String bad = PETER_SIG.substring(0, 60) + "ABCD" + PETER_SIG.substring(60);
        assertFalse(SignedNote.parse(TEXT + "\n" + bad).verify(NoteKey.parse(PETER_KEY)));
        String enochBad = ENOCH_SIG.substring(0, 60) + "ABCD" + ENOCH_SIG.substring(60);
        SignedNote mixed = SignedNote.parse(TEXT + "\n" + PETER_SIG + PETER_SIG + ENOCH_SIG + ENOCH_SIG + enochBad);
        assertTrue(mixed.verify(NoteKey.parse(PETER_KEY)));
        assertFalse(mixed.verify(NoteKey.parse(ENOCH_KEY)), "one of Enoch's lines is corrupt");
        assertEquals(3, mixed.signaturesBy(NoteKey.parse(ENOCH_KEY)).size());
    }

    @Test
    void malformedNotesAreRefused() {
        for (String note : List.of(TEXT, TEXT + "\n", TEXT + "\n" + PETER_SIG.substring(0, PETER_SIG.length() - 1),
                "\u0001" + TEXT + "\n" + PETER_SIG,
                TEXT + "\n\u2014 Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE"
                        + "6RyyBwJnAM=",
                TEXT + "\n" + PETER_SIG + "Unexpected line.\n",
                TEXT + "\n" + PETER_SIG + "\n",
                TEXT + "\n" + PETER_SIG.replace("\u2014", "-"),
                TEXT + "\n" + PETER_SIG.replace("AM=", "AM"),
                TEXT + "\n" + PETER_SIG.replace("\n", "\r\n"),
                TEXT + "\n\u2014 PeterNeumann AAAA\n",
                "\ud800" + TEXT + "\n" + PETER_SIG,
                TEXT + "\n" + PETER_SIG.repeat(SignedNote.MAX_SIGNATURES + 1))) {
            assertThrows(MalformedInput.class, () -> SignedNote.parse(note), note);
        }
        assertEquals(SignedNote.MAX_SIGNATURES,
                SignedNote.parse(TEXT + "\n" + PETER_SIG.repeat(SignedNote.MAX_SIGNATURES)).signatures().size());
    }

    @Test
    void aNoteMustBeUtf8() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(0xFF);
        bytes.writeBytes((TEXT + "\n" + PETER_SIG).getBytes(StandardCharsets.UTF_8));
        assertThrows(MalformedInput.class, () -> SignedNote.parse(bytes.toByteArray()));
        assertTrue(SignedNote.parse((TEXT + "\n" + PETER_SIG).getBytes(StandardCharsets.UTF_8))
                .verify(NoteKey.parse(PETER_KEY)));
    }

    @Test
    void theTextMayHoldBlankLinesTheLastOneSeparates() {
        String body = "first\n\nsecond\n";
        String note = SignedNote.sign(body, "PeterNeumann", peterPrivateKey());
        SignedNote read = SignedNote.parse(note);
        assertEquals(body, read.body());
        assertTrue(read.verify(NoteKey.parse(PETER_KEY)));
    }

    @Test
    void theRawPublicKeyIsTheTailOfItsX509Encoding() {
        NoteKey peter = NoteKey.parse(PETER_KEY);
        byte[] der = peter.publicKey().getEncoded();
        assertEquals(44, der.length);
        assertArrayEquals(Arrays.copyOfRange(der, 12, 44), peter.rawPublicKey());
        assertArrayEquals(peter.rawPublicKey(), Ed25519Keys.rawPublicKey(
                Ed25519Keys.readPublicPem(Ed25519Keys.publicPem(peter.publicKey()))));
        PrivateKey key = peterPrivateKey();
        assertArrayEquals(key.getEncoded(), Ed25519Keys.readPrivatePem(Ed25519Keys.privatePem(key)).getEncoded());
        assertThrows(MalformedInput.class, () -> Ed25519Keys.readPublicPem(Ed25519Keys.privatePem(key)));
        assertThrows(MalformedInput.class, () -> Ed25519Keys.readPublicPem("-----BEGIN PUBLIC KEY-----\n!!\n"
                + "-----END PUBLIC KEY-----\n"));
    }
}
