package dev.evidencestore.verify;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The offline verifier's command line: one line a check, and its exit statuses. */
class VerifyTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void aGoodCheckpointPassesEveryCheck() throws IOException {
        files(SignedNote.sign(checkpoint(), "PeterNeumann", SignedNoteTest.peterPrivateKey()));
        assertEquals(0, run("checkpoint", "cp.note", "--key", "pub.pem", "--origin", "PeterNeumann"), output());
        assertEquals(5, output().lines().filter(line -> line.startsWith("PASS ")).count(), output());
    }

    @Test
    void aCheckpointOfAnotherOriginOrAlteredFails() throws IOException {
        String note = SignedNote.sign(checkpoint(), "PeterNeumann", SignedNoteTest.peterPrivateKey());
        files(note);
        assertEquals(1, run("checkpoint", "cp.note", "--key", "pub.pem", "--origin", "other.example"));
        assertTrue(output().contains("FAIL origin: is PeterNeumann, not the expected other.example"), output());
        files(note.replace("\n3\n", "\n4\n"));
        assertEquals(1, run("checkpoint", "cp.note", "--key", "pub.pem"));
        assertTrue(output().contains("FAIL signature"), output());
        files("not a note\n");
        assertEquals(1, run("checkpoint", "cp.note", "--key", "pub.pem"));
        assertTrue(output().contains("FAIL note"), output());
    }

    @Test
    void usageErrorsExitWithTwo() throws IOException {
        files(SignedNote.sign(checkpoint(), "PeterNeumann", SignedNoteTest.peterPrivateKey()));
        assertEquals(2, run());
        assertEquals(2, run("bundle"));
        assertEquals(2, run("checkpoint", "cp.note"));
        assertEquals(2, run("checkpoint", "--key", "pub.pem"));
        assertEquals(2, run("checkpoint", "cp.note", "--key"));
        assertEquals(2, run("checkpoint", "cp.note", "--key", "pub.pem", "--verbose"));
        assertEquals(2, run("checkpoint", "missing.note", "--key", "pub.pem"));
        assertTrue(new String(err.toByteArray(), StandardCharsets.UTF_8).contains("usage:"));
    }

    private static String checkpoint() {
        return new Checkpoint("PeterNeumann", 3, MerkleHash.empty()).body();
    }

    private void files(String note) throws IOException {
        Files.writeString(dir.resolve("cp.note"), note, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("pub.pem"), Ed25519Keys.publicPem(NoteKey.parse(SignedNoteTest.PETER_KEY)
                .publicKey()));
    }

    private int run(String... arguments) {
        out.reset();
        List<String> resolved = List.of(arguments).stream()
                .map(argument -> argument.endsWith(".note") || argument.endsWith(".pem")
                        ? dir.resolve(argument).toString() : argument)
                .toList();
        return Verify.run(resolved, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String output() {
        return out.toString(StandardCharsets.UTF_8);
    }
}
