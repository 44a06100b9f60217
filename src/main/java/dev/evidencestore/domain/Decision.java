package dev.evidencestore.domain;

/** A reviewer's decision on a finding or a root cause. */
public enum Decision implements WireEnum {
    ACCEPTED("accepted"),
    REJECTED("rejected");

    private final String wire;

    Decision(String wire) {
        this.wire = wire;
    }

    public static Decision parse(String text) {
        return WireEnum.parse(Decision.class, "decision", text);
    }

    @Override
    public String wire() {
        return wire;
    }
}
