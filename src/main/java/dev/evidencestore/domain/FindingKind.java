package dev.evidencestore.domain;

/**
 * What a finding says about the root cause: evidence for it, evidence against a competing explanation, or a
 * source that could not be checked. Each kind has its own rule for what it may cite.
 */
public enum FindingKind implements WireEnum {
    SUPPORTING("supporting"),
    NEGATIVE("negative"),
    GAP("gap");

    private final String wire;

    FindingKind(String wire) {
        this.wire = wire;
    }

    public static FindingKind parse(String text) {
        return WireEnum.parse(FindingKind.class, "kind", text);
    }

    @Override
    public String wire() {
        return wire;
    }

    /** A gap rests only on records that a source was unavailable; the other kinds on any evidence. */
    public CitationRule citationRule() {
        if (this != GAP) {
            return CitationRule.ANY;
        }
        return artifact -> artifact.kind() == ArtifactKind.SOURCE_UNAVAILABLE ? null
                : "is a " + artifact.kind().wire() + "; a gap finding cites only source-unavailable artifacts";
    }
}
