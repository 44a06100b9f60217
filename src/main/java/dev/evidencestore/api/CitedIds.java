package dev.evidencestore.api;

import dev.evidencestore.domain.Violations;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** A list of cited IDs in a request: each parsed, none twice, and at least one when citations are required. */
final class CitedIds {

    private CitedIds() {
    }

    static <T> List<T> parse(Violations v, String field, List<String> ids, Function<String, T> parser,
                             boolean required) {
        if (ids == null) {
            if (required) {
                v.add(field, "is required");
            }
            return null;
        }
        if (required && ids.isEmpty()) {
            v.add(field, "must cite at least one record");
        }
        if (ids.size() > TextRules.MAX_ITEMS) {
            v.add(field, "must have at most " + TextRules.MAX_ITEMS + " items");
        }
        List<T> parsed = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ids.size(); i++) {
            String id = ids.get(i);
            if (id != null && !seen.add(id)) {
                v.add(field + "[" + i + "]", "cites " + id + " twice");
            }
            String itemField = field + "[" + i + "]";
            T value = v.parse(itemField, v.required(itemField, id), parser);
            parsed.add(value);
        }
        return parsed;
    }
}
