package dev.evidencestore.verify;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Base64;
import java.util.List;

/**
 * {@code verify checkpoint NOTE_FILE --key PUBLIC.pem [--origin O] [--key-name N]}: that a signed checkpoint is
 * well-formed, is the expected log's, and carries a valid signature of the key. The key name defaults to the expected
 * origin, else to the checkpoint's own origin line: tlog-checkpoint has logs sign under their origin, and the name
 * only selects the signature line, the PEM key is what is trusted.
 */
final class CheckpointCommand implements Command {

    @Override
    public String usage() {
        return "checkpoint NOTE_FILE --key PUBLIC.pem [--origin ORIGIN] [--key-name NAME]";
    }

    @Override
    public int run(List<String> arguments, PrintStream out, PrintStream err) {
        String noteFile = null;
        String keyFile = null;
        String origin = null;
        String keyName = null;
        for (int i = 0; i < arguments.size(); i++) {
            String argument = arguments.get(i);
            if (argument.equals("--key") || argument.equals("--origin") || argument.equals("--key-name")) {
                if (i + 1 >= arguments.size()) {
                    return usage(err, argument + " needs a value");
                }
                String value = arguments.get(++i);
                switch (argument) {
                    case "--key" -> keyFile = value;
                    case "--origin" -> origin = value;
                    default -> keyName = value;
                }
            } else if (argument.startsWith("-") || noteFile != null) {
                return usage(err, "unexpected argument \"" + argument + "\"");
            } else {
                noteFile = argument;
            }
        }
        if (noteFile == null || keyFile == null) {
            return usage(err, noteFile == null ? "NOTE_FILE is missing" : "--key is missing");
        }
        byte[] noteBytes;
        String keyPem;
        try {
            noteBytes = Files.readAllBytes(Path.of(noteFile));
            keyPem = Files.readString(Path.of(keyFile));
        } catch (IOException e) {
            return usage(err, "cannot read " + e.getMessage());
        }
        return check(noteBytes, keyPem, origin, keyName, out);
    }

    private static int check(byte[] noteBytes, String keyPem, String origin, String keyName, PrintStream out) {
        Checks checks = new Checks(out);
        PublicKey publicKey;
        try {
            publicKey = Ed25519Keys.readPublicPem(keyPem);
            checks.pass("key", "Ed25519 public key read from PEM");
        } catch (MalformedInput e) {
            return checks.fail("key", e.getMessage());
        }
        SignedNote note;
        try {
            note = SignedNote.parse(noteBytes);
            checks.pass("note", "a well-formed signed note with " + note.signatures().size() + " signature line(s)");
        } catch (MalformedInput e) {
            return checks.fail("note", e.getMessage());
        }
        Checkpoint checkpoint;
        try {
            checkpoint = Checkpoint.parse(note.body());
            checks.pass("checkpoint", "origin " + checkpoint.origin() + ", tree size " + checkpoint.size()
                    + ", root " + Base64.getEncoder().encodeToString(checkpoint.rootHash())
                    + (checkpoint.extensions().isEmpty() ? "" : ", " + checkpoint.extensions().size() + " extension line(s)"));
        } catch (MalformedInput e) {
            return checks.fail("checkpoint", e.getMessage());
        }
        if (origin != null) {
            if (origin.equals(checkpoint.origin())) {
                checks.pass("origin", "is the expected " + origin);
            } else {
                checks.fail("origin", "is " + checkpoint.origin() + ", not the expected " + origin);
            }
        }
        String name = keyName != null ? keyName : origin != null ? origin : checkpoint.origin();
        NoteKey key;
        try {
            key = NoteKey.of(name, publicKey);
        } catch (IllegalArgumentException e) {
            return checks.fail("signature", e.getMessage());
        }
        int lines = note.signaturesBy(key).size();
        if (lines == 0) {
            checks.fail("signature", "no signature line of key " + key.name() + "+" + key.keyIdHex());
        } else if (note.verify(key)) {
            checks.pass("signature", "valid, by key " + key.verifierKey());
        } else {
            checks.fail("signature", "a line of key " + key.name() + "+" + key.keyIdHex() + " does not verify");
        }
        return checks.status();
    }

    private static int usage(PrintStream err, String problem) {
        err.println("verify checkpoint: " + problem);
        err.println("usage: verify " + new CheckpointCommand().usage());
        return USAGE;
    }
}
