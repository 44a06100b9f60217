package dev.evidencestore.domain;

/**
 * The rule for the name a record shows for whoever wrote it. It is only for people to read (the principal says who
 * it was), but it is printed in pages, postmortems and audit entries, so it must be printable, bounded, and must not
 * pass for the unauthenticated caller.
 */
public final class DisplayName {

    public static final int MAX_LENGTH = 200;
    /** The name of every caller without a token; no token may claim it, in any case. */
    public static final String ANONYMOUS = "anonymous";

    private DisplayName() {
    }

    /** {@code value} when it may be shown as a name; {@code claim} names where it came from, for the refusal. */
    public static String require(String claim, String value) {
        if (value == null || value.isEmpty() || value.codePointCount(0, value.length()) > MAX_LENGTH
                || !printable(value) || !value.strip().equals(value)) {
            throw untrusted(claim + " must be 1 to " + MAX_LENGTH
                    + " printable characters, without spaces at either end");
        }
        if (ANONYMOUS.equalsIgnoreCase(value)) {
            throw untrusted(claim + " \"" + value + "\" is reserved for callers without a token");
        }
        return value;
    }

    /**
     * No control, format (such as bidirectional overrides), separator other than the space, private-use,
     * unassigned or lone surrogate characters: none of them shows as itself.
     */
    static boolean printable(String value) {
        return value.codePoints().allMatch(c -> switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.PRIVATE_USE, Character.SURROGATE,
                 Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
            case Character.SPACE_SEPARATOR -> c == ' ';
            default -> true;
        });
    }

    static Refusal untrusted(String detail) {
        return new Refusal(ProblemType.UNAUTHORIZED, detail);
    }
}
