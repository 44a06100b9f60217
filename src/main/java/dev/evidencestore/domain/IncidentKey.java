package dev.evidencestore.domain;

/** An incident key such as {@code INC-1423}, unique within its workspace. */
public record IncidentKey(String value) {

    private static final String RULE = "^[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}$";

    public IncidentKey {
        Slug.requireIncidentKey("key", value, RULE);
    }

    public static IncidentKey parse(String value) {
        return new IncidentKey(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
