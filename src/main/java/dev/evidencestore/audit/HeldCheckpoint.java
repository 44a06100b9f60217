package dev.evidencestore.audit;

import dev.evidencestore.domain.Refusal;
import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.MalformedInput;
import dev.evidencestore.verify.SignedNote;

/** A signed checkpoint someone kept, such as a witness or a CLI, sent back to be checked against the log. */
public record HeldCheckpoint(SignedNote note, Checkpoint checkpoint) {

    /** Bounds what a caller may send: a checkpoint is a few hundred bytes. */
    static final int MAX_LENGTH = 16 * 1024;

    /** Reads a signed note strictly; anything else is a 400 naming the field. */
    public static HeldCheckpoint parse(String text) {
        if (text.length() > MAX_LENGTH) {
            throw Refusal.invalid("checkpoint", "is longer than " + MAX_LENGTH + " characters");
        }
        try {
            SignedNote note = SignedNote.parse(text);
            return new HeldCheckpoint(note, Checkpoint.parse(note.body()));
        } catch (MalformedInput e) {
            throw Refusal.invalid("checkpoint", "is not a C2SP signed checkpoint: " + e.getMessage());
        }
    }
}
