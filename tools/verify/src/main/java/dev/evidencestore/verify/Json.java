package dev.evidencestore.verify;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A small, strict JSON reader and writer (RFC 8259), enough for DSSE envelopes, in-toto statements and manifests.
 * It is written by hand because this library has no dependencies at all: the offline verifier compiles it with
 * javac alone, and the service compiles the very same sources.
 *
 * <p>Values are {@code Map<String, Object>} (insertion order kept), {@code List<Object>}, {@link String},
 * {@link Long} for integers that fit it and {@link BigDecimal} for every other number, {@link Boolean}, and
 * {@code null}. The reader rejects what lenient parsers let through and signed data must not carry: duplicate keys,
 * trailing text, leading zeros, unescaped control characters, lone surrogates, nesting deeper than
 * {@link #MAX_DEPTH}.
 */
public final class Json {

    /** How deep objects and arrays may nest; bounded so that hostile input cannot exhaust the stack. */
    public static final int MAX_DEPTH = 64;

    /** Longer number literals are refused: nothing this library reads needs them, and they cost to convert. */
    private static final int MAX_NUMBER_LENGTH = 400;

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final String text;
    private int at;
    private int depth;

    private Json(String text) {
        this.text = text;
    }

    /** The one JSON value of this text. */
    public static Object parse(String text) {
        Json reader = new Json(text);
        reader.skipWhitespace();
        Object value = reader.value();
        reader.skipWhitespace();
        if (reader.at != text.length()) {
            throw reader.failure("text after the JSON value");
        }
        return value;
    }

    /** The compact JSON text of a value made of the types {@link #parse} returns (and Integer, BigInteger). */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    /** The value as an object, or a failure naming what it should have been. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object value, String what) {
        if (value instanceof Map) {
            return (Map<String, Object>) value;
        }
        throw new MalformedInput(what + " is not a JSON object");
    }

    @SuppressWarnings("unchecked")
    public static List<Object> array(Object value, String what) {
        if (value instanceof List) {
            return (List<Object>) value;
        }
        throw new MalformedInput(what + " is not a JSON array");
    }

    public static String string(Object value, String what) {
        if (value instanceof String) {
            return (String) value;
        }
        throw new MalformedInput(what + " is not a JSON string");
    }

    public static long integer(Object value, String what) {
        if (value instanceof Long) {
            return (Long) value;
        }
        throw new MalformedInput(what + " is not an integer");
    }

    /** Refuses an object that lacks a required member or has one outside both sets. */
    public static void requireMembers(Map<String, Object> object, Set<String> required, Set<String> optional,
            String what) {
        for (String name : required) {
            if (!object.containsKey(name)) {
                throw new MalformedInput(what + " lacks the member \"" + name + "\"");
            }
        }
        for (String name : object.keySet()) {
            if (!required.contains(name) && !optional.contains(name)) {
                throw new MalformedInput(what + " has an unknown member \"" + name + "\"");
            }
        }
    }

    private Object value() {
        if (at >= text.length()) {
            throw failure("a value was expected, the text ended");
        }
        char c = text.charAt(at);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw failure("unexpected character " + describe(c));
        }
    }

    private Map<String, Object> object() {
        enter();
        at++;
        Map<String, Object> members = new LinkedHashMap<>();
        skipWhitespace();
        if (peek() == '}') {
            at++;
            depth--;
            return Collections.unmodifiableMap(members);
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') {
                throw failure("a member name was expected");
            }
            int nameAt = at;
            String name = string();
            if (members.containsKey(name)) {
                at = nameAt;
                throw failure("duplicate member \"" + name + "\"");
            }
            skipWhitespace();
            expect(':');
            skipWhitespace();
            members.put(name, value());
            skipWhitespace();
            char c = peek();
            at++;
            if (c == '}') {
                depth--;
                return Collections.unmodifiableMap(members);
            }
            if (c != ',') {
                at--;
                throw failure("',' or '}' was expected");
            }
        }
    }

    private List<Object> array() {
        enter();
        at++;
        List<Object> elements = new ArrayList<>();
        skipWhitespace();
        if (peek() == ']') {
            at++;
            depth--;
            return Collections.unmodifiableList(elements);
        }
        while (true) {
            skipWhitespace();
            elements.add(value());
            skipWhitespace();
            char c = peek();
            at++;
            if (c == ']') {
                depth--;
                return Collections.unmodifiableList(elements);
            }
            if (c != ',') {
                at--;
                throw failure("',' or ']' was expected");
            }
        }
    }

    private String string() {
        at++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw failure("the string is not closed");
            }
            char c = text.charAt(at);
            if (c == '"') {
                at++;
                return out.toString();
            }
            if (c < 0x20) {
                throw failure("unescaped control character " + describe(c) + " in a string");
            }
            if (c == '\\') {
                escape(out);
                continue;
            }
            if (Character.isHighSurrogate(c)) {
                if (at + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(at + 1))) {
                    throw failure("lone surrogate " + describe(c) + " in a string");
                }
                out.append(c).append(text.charAt(at + 1));
                at += 2;
                continue;
            }
            if (Character.isLowSurrogate(c)) {
                throw failure("lone surrogate " + describe(c) + " in a string");
            }
            out.append(c);
            at++;
        }
    }

    private void escape(StringBuilder out) {
        if (at + 1 >= text.length()) {
            throw failure("the escape is not complete");
        }
        char c = text.charAt(at + 1);
        at += 2;
        switch (c) {
            case '"' -> out.append('"');
            case '\\' -> out.append('\\');
            case '/' -> out.append('/');
            case 'b' -> out.append('\b');
            case 'f' -> out.append('\f');
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case 'u' -> {
                char unit = hexUnit();
                if (Character.isHighSurrogate(unit)) {
                    // a character beyond the BMP is escaped as a pair, and only as a pair
                    if (!text.startsWith("\\u", at)) {
                        throw failure("lone surrogate " + describe(unit) + " in a string");
                    }
                    at += 2;
                    char low = hexUnit();
                    if (!Character.isLowSurrogate(low)) {
                        throw failure("lone surrogate " + describe(unit) + " in a string");
                    }
                    out.append(unit).append(low);
                } else if (Character.isLowSurrogate(unit)) {
                    throw failure("lone surrogate " + describe(unit) + " in a string");
                } else {
                    out.append(unit);
                }
            }
            default -> {
                at -= 2;
                throw failure("unknown escape \\" + c);
            }
        }
    }

    private char hexUnit() {
        if (at + 4 > text.length()) {
            throw failure("a \\u escape needs four hex digits");
        }
        int unit = 0;
        for (int i = 0; i < 4; i++) {
            int digit = hexDigit(text.charAt(at + i));
            if (digit < 0) {
                throw failure("a \\u escape needs four hex digits");
            }
            unit = unit * 16 + digit;
        }
        at += 4;
        return (char) unit;
    }

    private Object number() {
        int start = at;
        boolean integral = true;
        if (peek() == '-') {
            at++;
        }
        if (peek() == '0') {
            at++;
            if (isDigit(peek())) {
                throw failure("a number has a leading zero");
            }
        } else {
            digits("a digit was expected in a number");
        }
        if (peek() == '.') {
            integral = false;
            at++;
            digits("a digit was expected after the decimal point");
        }
        if (peek() == 'e' || peek() == 'E') {
            integral = false;
            at++;
            if (peek() == '+' || peek() == '-') {
                at++;
            }
            digits("a digit was expected in the exponent");
        }
        if (at - start > MAX_NUMBER_LENGTH) {
            at = start;
            throw failure("a number longer than " + MAX_NUMBER_LENGTH + " characters");
        }
        String literal = text.substring(start, at);
        if (integral) {
            BigInteger value = new BigInteger(literal);
            if (value.compareTo(LONG_MIN) >= 0 && value.compareTo(LONG_MAX) <= 0) {
                return value.longValue();
            }
        }
        return new BigDecimal(literal);
    }

    private void digits(String otherwise) {
        if (!isDigit(peek())) {
            throw failure(otherwise);
        }
        while (isDigit(peek())) {
            at++;
        }
    }

    private Object literal(String word, Object value) {
        if (!text.startsWith(word, at)) {
            throw failure("unexpected character " + describe(text.charAt(at)));
        }
        at += word.length();
        return value;
    }

    private void enter() {
        depth++;
        if (depth > MAX_DEPTH) {
            throw failure("nesting deeper than " + MAX_DEPTH);
        }
    }

    private void expect(char c) {
        if (peek() != c) {
            throw failure("'" + c + "' was expected");
        }
        at++;
    }

    /** The current character, or NUL at the end: NUL is never valid where a structural character is checked. */
    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private void skipWhitespace() {
        while (at < text.length()) {
            char c = text.charAt(at);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            at++;
        }
    }

    private MalformedInput failure(String problem) {
        return new MalformedInput("JSON at offset " + at + ": " + problem);
    }

    /** An ASCII hex digit's value, or -1: Character.digit would also take other scripts' digits. */
    private static int hexDigit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static String describe(char c) {
        return String.format("U+%04X", (int) c);
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            writeString((String) value, out);
        } else if (value instanceof Boolean || value instanceof Long || value instanceof Integer
                || value instanceof BigInteger) {
            out.append(value);
        } else if (value instanceof BigDecimal) {
            out.append(((BigDecimal) value).toString());
        } else if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> member : ((Map<?, ?>) value).entrySet()) {
                if (!(member.getKey() instanceof String)) {
                    throw new IllegalArgumentException("a JSON member name must be a string: " + member.getKey());
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeString((String) member.getKey(), out);
                out.append(':');
                write(member.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object element : (List<?>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(element, out);
            }
            out.append(']');
        } else {
            // doubles and floats are refused: their text is not exact, and nothing signed here should carry one
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void writeString(String value, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else if (Character.isHighSurrogate(c) && i + 1 < value.length()
                            && Character.isLowSurrogate(value.charAt(i + 1))) {
                        out.append(c).append(value.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        throw new IllegalArgumentException("lone surrogate in a string: no UTF-8 form");
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
