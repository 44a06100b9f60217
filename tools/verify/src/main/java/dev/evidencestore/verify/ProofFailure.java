package dev.evidencestore.verify;

/**
 * A proof that does not hold: it is malformed for the sizes it claims (too short, too long, a hash of the wrong
 * length) or it leads to a different root. Unchecked, because a verifier reports it and a log that fails its own
 * proof has a bug; neither can recover by catching it on the way.
 */
public class ProofFailure extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ProofFailure(String message) {
        super(message);
    }
}
