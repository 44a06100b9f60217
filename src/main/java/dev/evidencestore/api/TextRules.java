package dev.evidencestore.api;

import dev.evidencestore.domain.Violations;

import java.util.List;

/** Length limits on free text, so a request cannot smuggle megabytes into metadata. */
final class TextRules {

    static final int LINE = 500;
    static final int PROSE = 20_000;
    static final int MAX_ITEMS = 100;

    private TextRules() {
    }

    static void check(Violations violations, String field, String value, int maxLength) {
        if (value == null) {
            return;
        }
        if (value.length() > maxLength) {
            violations.add(field, "must be at most " + maxLength + " characters");
        } else if (!storable(value)) {
            violations.add(field, "must not contain NUL or unpaired surrogate characters");
        }
    }

    /** PostgreSQL text holds neither NUL nor half a surrogate pair; refuse them rather than fail or mangle. */
    private static boolean storable(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == 0) {
                return false;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= value.length() || !Character.isLowSurrogate(value.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }

    static void checkAll(Violations violations, String field, List<String> values) {
        checkAll(violations, field, values, LINE);
    }

    static void checkAll(Violations violations, String field, List<String> values, int maxLength) {
        if (values == null) {
            return;
        }
        if (values.size() > MAX_ITEMS) {
            violations.add(field, "must have at most " + MAX_ITEMS + " items");
        }
        for (int i = 0; i < values.size(); i++) {
            String value = values.get(i);
            if (value == null || value.isBlank()) {
                violations.add(field + "[" + i + "]", "must be non-blank text");
            } else {
                check(violations, field + "[" + i + "]", value, maxLength);
            }
        }
    }
}
