package dev.evidencestore.verify;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The strict JSON reader and writer, with an in-toto Statement v1 as the documents it exists for. */
class JsonTest {

    @Test
    void anInTotoStatementReads() {
        String statement = "{\n  \"_type\": \"https://in-toto.io/Statement/v1\",\n"
                + "  \"subject\": [{\"name\": \"evidence\", \"digest\": {\"sha256\": \"" + "ab".repeat(32) + "\"}}],\n"
                + "  \"predicateType\": \"https://evidence.example/review/v1\",\n"
                + "  \"predicate\": {\"decision\": \"accepted\", \"round\": 2, \"score\": 0.75, \"final\": true,"
                + " \"note\": null}\n}\n";
        Map<String, Object> read = Json.object(Json.parse(statement), "statement");
        assertEquals("https://in-toto.io/Statement/v1", read.get("_type"));
        Map<String, Object> subject = Json.object(Json.array(read.get("subject"), "subject").get(0), "subject 0");
        assertEquals("ab".repeat(32), Json.object(subject.get("digest"), "digest").get("sha256"));
        Map<String, Object> predicate = Json.object(read.get("predicate"), "predicate");
        assertEquals(2L, predicate.get("round"));
        assertEquals(new BigDecimal("0.75"), predicate.get("score"));
        assertEquals(Boolean.TRUE, predicate.get("final"));
        assertNull(predicate.get("note"));
        assertEquals(List.of("_type", "subject", "predicateType", "predicate"), List.copyOf(read.keySet()));
        assertEquals(read, Json.parse(Json.write(read)));
    }

    @Test
    void stringsUnescapeIncludingSurrogatePairs() {
        assertEquals("a\"\\/\b\f\n\r\t\u00e9\ud83d\ude00", Json.parse(
                "\"a\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00E9\\ud83d\\uDE00\""));
        assertEquals("\ud83d\ude00", Json.parse("\"\ud83d\ude00\""));
        assertEquals("\"\\u0001\\n\ud83d\ude00\\\"\"", Json.write("\u0001\n\ud83d\ude00\""));
    }

    @Test
    void numbersAreLongsOrDecimals() {
        assertEquals(0L, Json.parse("0"));
        assertEquals(-12L, Json.parse("-12"));
        assertEquals(Long.MAX_VALUE, Json.parse("9223372036854775807"));
        assertEquals(Long.MIN_VALUE, Json.parse("-9223372036854775808"));
        assertEquals(new BigDecimal("9223372036854775808"), Json.parse("9223372036854775808"));
        assertEquals(new BigDecimal("1.5E+3"), Json.parse("1.5E+3"));
        assertEquals(new BigDecimal("-0.0"), Json.parse("-0.0"));
        assertEquals("[1,2.50,true,false,null]", Json.write(Arrays.asList(1L, new BigDecimal("2.50"), true, false,
                null)));
    }

    @Test
    void whatLenientParsersAcceptIsRefused() {
        for (String text : List.of("", " ", "{", "[1,]", "[,1]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "'a'",
                "01", "-", "1.", ".5", "+1", "1e", "1e+", "NaN", "Infinity", "0x10", "tru", "nul", "True",
                "\"\\x\"", "\"\\u12\"", "\"\\u12g4\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"",
                "\"\ud83d\"", "\"\ude00x\"", "\"a\nb\"", "\"a\tb\"", "\"open", "{\"a\":1,\"a\":2}", "1 2", "[] x",
                "{}{}", "\u00a0[]", "[1]\u0000", "\"\\u\u0660\u0660\u0660\u0660\"", "1".repeat(401))) {
            assertThrows(MalformedInput.class, () -> Json.parse(text), text);
        }
    }

    @Test
    void nestingIsBounded() {
        String deep = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
        assertEquals(Json.MAX_DEPTH, depth(Json.parse(deep)));
        assertThrows(MalformedInput.class, () -> Json.parse("[" + deep + "]"));
        assertThrows(MalformedInput.class, () -> Json.parse("{\"a\":".repeat(Json.MAX_DEPTH + 1) + "1"
                + "}".repeat(Json.MAX_DEPTH + 1)));
        assertThrows(MalformedInput.class, () -> Json.parse("[".repeat(100_000)));
    }

    @Test
    void theWriterRefusesWhatHasNoExactJsonForm() {
        assertThrows(IllegalArgumentException.class, () -> Json.write(1.5d));
        assertThrows(IllegalArgumentException.class, () -> Json.write("\ud800"));
        Map<Object, Object> badKey = new LinkedHashMap<>();
        badKey.put(1, 2);
        assertThrows(IllegalArgumentException.class, () -> Json.write(badKey));
    }

    @Test
    void membersAreCheckedByName() {
        Map<String, Object> object = Json.object(Json.parse("{\"a\":1,\"b\":2}"), "o");
        Json.requireMembers(object, Set.of("a"), Set.of("b"), "o");
        assertThrows(MalformedInput.class, () -> Json.requireMembers(object, Set.of("a", "c"),
                Set.of("b"), "o"));
        assertThrows(MalformedInput.class, () -> Json.requireMembers(object, Set.of("a"),
                Set.of(), "o"));
    }

    private static int depth(Object value) {
        return value instanceof List && !((List<?>) value).isEmpty() ? 1 + depth(((List<?>) value).get(0))
                : value instanceof List ? 1 : 0;
    }
}
