package dev.evidencestore.domain;

import java.util.regex.Pattern;

/** The readable name of an artifact or a finding within its incident, such as {@code grafana-checkout}. */
public record RecordName(String value) {

    private static final String RULE = "^[a-z0-9][a-z0-9-]{0,63}$";
    private static final Pattern PATTERN = Pattern.compile(RULE);

    public RecordName {
        Slug.require("name", value, PATTERN, RULE);
    }

    public static RecordName parse(String value) {
        return new RecordName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
