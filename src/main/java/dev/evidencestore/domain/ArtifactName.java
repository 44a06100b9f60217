package dev.evidencestore.domain;

import java.util.regex.Pattern;

/** The name of an artifact within its incident, such as {@code grafana-checkout}. */
public record ArtifactName(String value) {

    private static final String RULE = "^[a-z0-9][a-z0-9-]{0,63}$";
    private static final Pattern PATTERN = Pattern.compile(RULE);

    public ArtifactName {
        Slug.require("name", value, PATTERN, RULE);
    }

    public static ArtifactName parse(String value) {
        return new ArtifactName(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
