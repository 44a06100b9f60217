package dev.evidencestore.domain;

/** Where an incident stands. */
public enum IncidentStatus implements WireEnum {
    INVESTIGATING("investigating"),
    MITIGATED("mitigated"),
    RESOLVED("resolved"),
    IN_REVIEW("in-review"),
    CLOSED("closed");

    private final String wire;

    IncidentStatus(String wire) {
        this.wire = wire;
    }

    public static IncidentStatus parse(String text) {
        return WireEnum.parse(IncidentStatus.class, "status", text);
    }

    @Override
    public String wire() {
        return wire;
    }
}
