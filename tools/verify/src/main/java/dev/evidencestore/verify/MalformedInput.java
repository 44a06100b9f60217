package dev.evidencestore.verify;

/**
 * Input that does not follow its format: a note, a checkpoint, a key, a JSON text or a DSSE envelope. Parsing is
 * strict everywhere, since two readers that accept different texts as the same object are how signed data gets
 * reinterpreted; the message says what is wrong and where.
 */
public class MalformedInput extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public MalformedInput(String message) {
        super(message);
    }

    public MalformedInput(String message, Throwable cause) {
        super(message, cause);
    }
}
