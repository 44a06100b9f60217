package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

/**
 * A JSON merge patch (RFC 7396) read into a request record: the values, and which fields the patch names, since
 * naming a field with null (clear it) differs from leaving it out (keep it).
 */
record MergePatch<T>(T values, Set<String> fields) {

    static final String MEDIA_TYPE = "application/merge-patch+json";

    static <T> MergePatch<T> read(ObjectMapper mapper, ObjectNode body, Class<T> type) throws IOException {
        ObjectNode patch = Bodies.required(body);
        Set<String> fields = new HashSet<>();
        patch.fieldNames().forEachRemaining(fields::add);
        return new MergePatch<>(mapper.treeToValue(patch, type), Set.copyOf(fields));
    }
}
