package dev.evidencestore.domain;

import java.util.regex.Pattern;

/** The syntax rules of the readable names that make up evidence IDs. */
final class Slug {

    private Slug() {
    }

    static String require(String field, String value, Pattern pattern, String rule) {
        if (value == null || !pattern.matcher(value).matches()) {
            throw Refusal.invalid(field, "must match " + rule);
        }
        return value;
    }
}
