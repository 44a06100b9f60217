package dev.evidencestore.domain;

/** Where an action item stands. */
public enum ActionStatus implements WireEnum {
    OPEN("open"),
    IN_PROGRESS("in-progress"),
    COMPLETED("completed");

    private final String wire;

    ActionStatus(String wire) {
        this.wire = wire;
    }

    public static ActionStatus parse(String text) {
        return WireEnum.parse(ActionStatus.class, "status", text);
    }

    @Override
    public String wire() {
        return wire;
    }
}
