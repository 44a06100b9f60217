package dev.evidencestore.http;

/** What a request carrying an Idempotency-Key may do, as the record of its key says. */
sealed interface Claim {

    /** The key is this request's: it runs, and its answer is stored under the key. */
    record Granted(HeldKey held) implements Claim {
    }

    /** A request with this key and fingerprint was answered: send that answer again. */
    record Completed(StoredResponse response) implements Claim {
    }

    /** The key was used for a request with another fingerprint. */
    record Reused() implements Claim {
    }

    /** A request with this key is still running. */
    record InFlight() implements Claim {
    }
}
