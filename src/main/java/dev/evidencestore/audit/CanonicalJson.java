package dev.evidencestore.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.erdtman.jcs.JsonCanonicalizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The RFC 8785 (JCS) form of a JSON object: members sorted, no whitespace, numbers and strings in one spelling. What
 * is hashed or signed must not depend on field order or on how a serializer happens to be configured, so anyone can
 * recompute it from the published fields.
 */
final class CanonicalJson {

    // a mapper of its own: the application's one is configured for requests and may change
    private static final ObjectMapper JSON = new ObjectMapper();

    private CanonicalJson() {
    }

    /** UTF-8 bytes of the canonical form; values are strings, integral numbers, null, lists or maps of them. */
    static byte[] of(Map<String, Object> members) {
        try {
            return new JsonCanonicalizer(JSON.writeValueAsString(members)).getEncodedUTF8();
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not representable as JSON: " + members.keySet(), e);
        } catch (IOException e) {
            throw new IllegalStateException("JSON written by Jackson was refused by the canonicalizer", e);
        }
    }

    /** The object {@link #of} wrote, read back: members as strings, integral numbers, lists and maps. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parse(String json) {
        try {
            return JSON.readValue(json, Map.class);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("stored audit members are not JSON: " + json, e);
        }
    }
}
