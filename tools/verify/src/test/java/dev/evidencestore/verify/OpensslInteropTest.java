package dev.evidencestore.verify;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * What is signed here verifies with another implementation: OpenSSL 3 checks the Ed25519 signature of a note over
 * its text, and of a DSSE envelope over its PAE, with keys OpenSSL made and this library read from PEM.
 */
class OpensslInteropTest {

    @TempDir
    static Path dir;

    private static PrivateKey privateKey;
    private static PublicKey publicKey;

    @BeforeAll
    static void opensslMakesTheKeys() throws Exception {
        assumeTrue(run("openssl", "version") == 0, "openssl is not installed");
        assertEquals(0, run("openssl", "genpkey", "-algorithm", "ed25519", "-out", dir.resolve("key.pem").toString()));
        assertEquals(0, run("openssl", "pkey", "-in", dir.resolve("key.pem").toString(), "-pubout", "-out",
                dir.resolve("pub.pem").toString()));
        privateKey = Ed25519Keys.readPrivatePem(Files.readString(dir.resolve("key.pem")));
        publicKey = Ed25519Keys.readPublicPem(Files.readString(dir.resolve("pub.pem")));
    }

    @Test
    void theDerivedPublicKeyIsOpensslsPublicKey() {
        assertArrayEquals(Ed25519Keys.rawPublicKey(publicKey),
                Ed25519Keys.rawPublicKey(Ed25519Keys.publicKeyOf(privateKey)));
    }

    @Test
    void aSignedNoteVerifiesWithOpenssl() throws Exception {
        String body = new Checkpoint("evidence.example/log", 42, MerkleHash.leaf(new byte[] {1})).body();
        SignedNote note = SignedNote.parse(SignedNote.sign(body, "evidence.example/log", privateKey));
        assertTrue(note.verify(NoteKey.of("evidence.example/log", publicKey)));
        Files.writeString(dir.resolve("body.txt"), note.body(), StandardCharsets.UTF_8);
        Files.write(dir.resolve("sig.bin"), note.signatures().get(0).signature());
        assertEquals(0, verify("body.txt", "sig.bin"), "openssl verifies the note's signature");

        Files.writeString(dir.resolve("altered.txt"), note.body().replace("42", "43"), StandardCharsets.UTF_8);
        assertNotEquals(0, verify("altered.txt", "sig.bin"), "openssl refuses it over another text");
    }

    @Test
    void aDsseEnvelopeVerifiesWithOpensslOverItsPae() throws Exception {
        byte[] statement = "{\"_type\":\"https://in-toto.io/Statement/v1\"}".getBytes(StandardCharsets.UTF_8);
        DsseEnvelope envelope = DsseEnvelope.parse(
                DsseEnvelope.sign("application/vnd.in-toto+json", statement, "k", privateKey).toJson());
        assertTrue(envelope.verify(publicKey));
        Files.write(dir.resolve("pae.bin"), envelope.pae());
        Files.write(dir.resolve("dsse.sig"), envelope.signatures().get(0).sig());
        assertEquals(0, verify("pae.bin", "dsse.sig"), "openssl verifies the envelope's signature over the PAE");

        Files.write(dir.resolve("payload.bin"), statement);
        assertNotEquals(0, verify("payload.bin", "dsse.sig"), "the signature is over the PAE, not the bare payload");
    }

    @Test
    void aNoteSignedByOpensslVerifiesHere() throws Exception {
        String body = "evidence.example/log\n0\n" + Base64.getEncoder().encodeToString(MerkleHash.empty())
                + "\n";
        Files.writeString(dir.resolve("empty.txt"), body, StandardCharsets.UTF_8);
        assertEquals(0, run("openssl", "pkeyutl", "-sign", "-inkey", dir.resolve("key.pem").toString(), "-rawin",
                "-in", dir.resolve("empty.txt").toString(), "-out", dir.resolve("empty.sig").toString()));
        NoteKey key = NoteKey.of("evidence.example/log", publicKey);
        byte[] signature = Files.readAllBytes(dir.resolve("empty.sig"));
        String note = body + "\n" + new NoteSignature(key.name(), key.keyId(), signature).line();
        assertEquals(SignedNote.sign(body, key, privateKey), note, "Ed25519 is deterministic: the same note");
        assertTrue(SignedNote.parse(note).verify(key));
    }

    private static int verify(String message, String signature) throws Exception {
        return run("openssl", "pkeyutl", "-verify", "-pubin", "-inkey", dir.resolve("pub.pem").toString(), "-rawin",
                "-in", dir.resolve(message).toString(), "-sigfile", dir.resolve(signature).toString());
    }

    private static int run(String... command) throws InterruptedException {
        List<String> line = new ArrayList<>(List.of(command));
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("openssl.log").toFile()).start();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("openssl did not finish: " + line);
            }
            return process.exitValue();
        } catch (IOException e) {
            // no openssl on the PATH
            return -1;
        }
    }
}
