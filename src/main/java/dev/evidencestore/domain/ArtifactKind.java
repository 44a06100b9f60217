package dev.evidencestore.domain;

/** What an artifact records: a captured snapshot, or that a source could not be reached. */
public enum ArtifactKind implements WireEnum {
    SNAPSHOT("snapshot"),
    SOURCE_UNAVAILABLE("source-unavailable");

    private final String wire;

    ArtifactKind(String wire) {
        this.wire = wire;
    }

    public static ArtifactKind parse(String text) {
        return WireEnum.parse(ArtifactKind.class, "kind", text);
    }

    @Override
    public String wire() {
        return wire;
    }
}
