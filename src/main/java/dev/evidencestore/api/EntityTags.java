package dev.evidencestore.api;

import java.util.Arrays;

/** {@code If-None-Match} against a strong entity tag (RFC 9110 section 13.1.2, weak comparison). */
final class EntityTags {

    private EntityTags() {
    }

    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        return Arrays.stream(ifNoneMatch.split(","))
                .map(String::strip)
                .map(tag -> tag.startsWith("W/") ? tag.substring(2) : tag)
                .anyMatch(tag -> tag.equals("*") || tag.equals(etag));
    }
}
