package dev.evidencestore.domain;

/** The severity of an incident, SEV-1 being the worst. */
public enum Severity implements WireEnum {
    SEV_1("SEV-1"),
    SEV_2("SEV-2"),
    SEV_3("SEV-3"),
    SEV_4("SEV-4"),
    SEV_5("SEV-5");

    private final String wire;

    Severity(String wire) {
        this.wire = wire;
    }

    public static Severity parse(String text) {
        return WireEnum.parse(Severity.class, "severity", text);
    }

    @Override
    public String wire() {
        return wire;
    }
}
