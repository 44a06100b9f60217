package dev.evidencestore.audit;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The two members an entry gained after its first form, {@code truncated} and {@code aggregate}, as their rows store
 * them: the canonical JSON of the member's value, or null when the entry has none. Both are members of the entry's
 * canonical JSON only when present, so every entry written before them hashes as it always did.
 */
final class ExtraMembers {

    private ExtraMembers() {
    }

    /** The stored form of an entry's truncations, or null when nothing was cut. */
    static String truncatedText(Map<String, Truncation> truncated) {
        return truncated.isEmpty() ? null : text(truncatedMembers(truncated));
    }

    /** The truncations a row stores; empty for null. */
    static Map<String, Truncation> truncatedOf(String text) {
        if (text == null) {
            return Map.of();
        }
        Map<String, Truncation> truncated = new TreeMap<>();
        CanonicalJson.parse(text).forEach((field, members) -> truncated.put(field, Truncation.of((Map<?, ?>) members)));
        return Collections.unmodifiableMap(truncated);
    }

    /** The value of the {@code truncated} member: each cut field with its whole length and digest. */
    static Map<String, Object> truncatedMembers(Map<String, Truncation> truncated) {
        Map<String, Object> members = new LinkedHashMap<>();
        truncated.forEach((field, truncation) -> members.put(field, truncation.members()));
        return members;
    }

    /** The stored form of an entry's aggregate, or null when it records one request. */
    static String aggregateText(Aggregate aggregate) {
        return aggregate == null ? null : text(aggregate.members());
    }

    /** The aggregate a row stores, or null. */
    static Aggregate aggregateOf(String text) {
        return text == null ? null : Aggregate.of(CanonicalJson.parse(text));
    }

    /** Adds the members an entry has of these two to its canonical JSON's {@code members}. */
    static void addTo(Map<String, Object> members, Map<String, Truncation> truncated, Aggregate aggregate) {
        if (!truncated.isEmpty()) {
            members.put("truncated", truncatedMembers(truncated));
        }
        if (aggregate != null) {
            members.put("aggregate", aggregate.members());
        }
    }

    private static String text(Map<String, Object> members) {
        return new String(CanonicalJson.of(members), StandardCharsets.UTF_8);
    }
}
