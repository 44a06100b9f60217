package dev.evidencestore.domain;

/** Where a finding or root cause stands; anything but proposed is final for a finding. */
public enum ReviewStatus implements WireEnum {
    PROPOSED("proposed"),
    ACCEPTED("accepted"),
    REJECTED("rejected");

    private final String wire;

    ReviewStatus(String wire) {
        this.wire = wire;
    }

    public static ReviewStatus parse(String text) {
        return WireEnum.parse(ReviewStatus.class, "status", text);
    }

    @Override
    public String wire() {
        return wire;
    }
}
