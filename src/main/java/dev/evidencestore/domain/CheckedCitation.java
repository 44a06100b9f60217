package dev.evidencestore.domain;

/**
 * One ID cited in a text, however often: its worst status over all its mentions, the first line with that status,
 * how many times it is mentioned, and (for an artifact the caller can see) the digest the store holds. One entry
 * per distinct ID keeps the answer bounded by the IDs, not by how often a text repeats them.
 */
public record CheckedCitation(String id, int line, int mentions, Status status, Digest digest) {

    /** The citation as its first mention found it. */
    public static CheckedCitation first(String id, int line, Status status, Digest digest) {
        return new CheckedCitation(id, line, 1, status, digest);
    }

    /** With one more mention, on {@code line}: a citation is only as good as its worst mention. */
    public CheckedCitation and(int line, Status status) {
        boolean worse = status.compareTo(this.status) > 0;
        return new CheckedCitation(id, worse ? line : this.line, mentions + 1, worse ? status : this.status, digest);
    }

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
