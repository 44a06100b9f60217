package dev.evidencestore.domain;

/**
 * One citation found in a text: the ID, the line it is on, what the service knows of it, and (for an artifact it
 * can see) the digest it holds.
 */
public record CheckedCitation(String id, int line, Status status, Digest digest) {

    /** From best to worst; a citation is only as good as its worst finding. */
    public enum Status implements WireEnum {
        OK("ok"),
        UNVERIFIED("unverified"),
        FAILED_VERIFICATION("failed-verification"),
        DIGEST_MISMATCH("digest-mismatch"),
        UNKNOWN("unknown");

        private final String wire;

        Status(String wire) {
            this.wire = wire;
        }

        @Override
        public String wire() {
            return wire;
        }
    }
}
