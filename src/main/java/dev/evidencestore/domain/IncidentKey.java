package dev.evidencestore.domain;

import java.util.regex.Pattern;

/** An incident key such as {@code INC-1423}, unique within its workspace. */
public record IncidentKey(String value) {

    private static final String RULE = "^[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}$";
    private static final Pattern PATTERN = Pattern.compile(RULE);

    public IncidentKey {
        Slug.require("key", value, PATTERN, RULE);
    }

    public static IncidentKey parse(String value) {
        return new IncidentKey(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
