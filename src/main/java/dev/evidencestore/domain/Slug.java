package dev.evidencestore.domain;

/**
 * The syntax rules of the readable names that make up evidence IDs, and the character classes they are made of.
 * Loops, not regular expressions: every ID read from the database is checked again, and matching them was a
 * twentieth of a postmortem's CPU.
 */
final class Slug {

    private Slug() {
    }

    /** {@code ^[a-z0-9][a-z0-9-]{0,maxLength-1}$}, as {@code rule} states it. */
    static String requireLowercase(String field, String value, int maxLength, String rule) {
        if (value == null || value.isEmpty() || value.length() > maxLength || value.charAt(0) == '-'
                || !isLowercaseOrDash(value)) {
            throw Refusal.invalid(field, "must match " + rule);
        }
        return value;
    }

    private static boolean isLowercaseOrDash(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (!(c >= 'a' && c <= 'z' || isDigit(c) || c == '-')) {
                return false;
            }
        }
        return true;
    }

    static boolean isUppercaseOrDigit(String value, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isUppercase(value.charAt(i)) && !isDigit(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean isDigits(String value, int from, int to) {
        for (int i = from; i < to; i++) {
            if (!isDigit(value.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean isUppercase(char c) {
        return c >= 'A' && c <= 'Z';
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
