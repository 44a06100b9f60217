package dev.evidencestore.domain;

/**
 * A record that rests on an artifact, like an OCI referrer: a finding or timeline entry citing it (with the digest
 * it pinned), or a root cause citing such a finding ({@code via}).
 */
public record Referrer(String kind, String id, String status, Digest digest, String via) {

    public static final String FINDING = "finding";
    public static final String ROOT_CAUSE = "root-cause";
    public static final String TIMELINE_ENTRY = "timeline-entry";
}
