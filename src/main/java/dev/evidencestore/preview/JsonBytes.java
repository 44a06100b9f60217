package dev.evidencestore.preview;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Reading the JSON of evidence: a whole document or nothing, and values as a page shows them. */
final class JsonBytes {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private JsonBytes() {
    }

    static JsonNode read(Prefix prefix) throws Unreadable {
        if (prefix.truncated()) {
            throw new Unreadable("only the first " + prefix.bytes().length + " bytes were read, and JSON is read whole");
        }
        try {
            JsonNode root = MAPPER.readTree(prefix.bytes());
            if (root == null || !root.isObject()) {
                throw new Unreadable("the document is not a JSON object");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw new Unreadable("the bytes are not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new Unreadable("the bytes could not be read as JSON");
        }
    }

    /** A scalar member as text, or null when it is missing, null or not a scalar. */
    static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || value.isNull() || value.isContainerNode() ? null : value.asText();
    }

    /** A time as epoch milliseconds (Grafana's numbers) or ISO 8601 text; null when it is neither. */
    static Instant instant(JsonNode value) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isNumber()) {
            return Instant.ofEpochMilli(value.asLong());
        }
        if (value.isTextual()) {
            try {
                return Instant.parse(value.asText());
            } catch (DateTimeParseException e) {
                return null;
            }
        }
        return null;
    }

    /** A number, or NaN for null and anything that is not one, which a chart draws as a gap. */
    static double number(JsonNode value) {
        return value != null && value.isNumber() ? value.asDouble() : Double.NaN;
    }
}
