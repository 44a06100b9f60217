package dev.evidencestore.domain;

/** How sure the investigators are of a root cause. */
public enum Confidence implements WireEnum {
    HIGH("high"),
    MEDIUM("medium"),
    LOW("low");

    private final String wire;

    Confidence(String wire) {
        this.wire = wire;
    }

    public static Confidence parse(String text) {
        return WireEnum.parse(Confidence.class, "confidence", text);
    }

    @Override
    public String wire() {
        return wire;
    }
}
