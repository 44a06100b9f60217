package dev.evidencestore.domain;

/** An incident key such as {@code INC-1423}, unique within its workspace. */
public record IncidentKey(String value) {

    private static final String RULE = "^[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}$";

    public IncidentKey {
        if (!follows(value)) {
            throw Refusal.invalid("key", "must match " + RULE);
        }
    }

    /** {@link #RULE} as a loop (see {@link Slug}): a prefix of 1 to 16 letters and digits, a dash, 1 to 9 digits. */
    private static boolean follows(String value) {
        int dash = value == null ? -1 : value.indexOf('-');
        int digits = dash < 0 ? 0 : value.length() - dash - 1;
        return dash >= 1 && dash <= 16 && Slug.isUppercase(value.charAt(0))
                && Slug.isUppercaseOrDigit(value, 1, dash) && digits >= 1 && digits <= 9
                && Slug.isDigits(value, dash + 1, value.length());
    }

    public static IncidentKey parse(String value) {
        return new IncidentKey(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
