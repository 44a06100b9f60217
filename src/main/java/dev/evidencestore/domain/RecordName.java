package dev.evidencestore.domain;

/** The readable name of an artifact or a finding within its incident, such as {@code grafana-checkout}. */
public record RecordName(String value) {

    private static final String RULE = "^[a-z0-9][a-z0-9-]{0,63}$";

    public RecordName {
        Slug.requireLowercase("name", value, 64, RULE);
    }

    public static RecordName parse(String value) {
        return new RecordName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
