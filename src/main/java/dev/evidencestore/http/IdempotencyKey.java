package dev.evidencestore.http;

import dev.evidencestore.domain.Refusal;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The value of an {@code Idempotency-Key} header. The draft makes it an RFC 8941 string, {@code "8e03978e-40d5"}; a
 * bare token, {@code 8e03978e-40d5}, as many clients send, is accepted as the same key. Either way the key is 1 to
 * 255 printable ASCII characters. Parameters ({@code "k";p=1}) are refused rather than silently dropped.
 */
record IdempotencyKey(String value) {

    static final String HEADER = "Idempotency-Key";
    private static final int MAX_LENGTH = 255;
    /** RFC 9110 tchar. */
    private static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,255}");
    private static final Pattern PRINTABLE = Pattern.compile("[ -~]{1,255}");

    /** The request's key, or null when it sent none. */
    static IdempotencyKey of(List<String> fields) {
        if (fields == null || fields.isEmpty()) {
            return null;
        }
        if (fields.size() > 1) {
            throw invalid("must be sent once");
        }
        return parse(fields.get(0));
    }

    static IdempotencyKey parse(String field) {
        String value = field.replaceAll("^[ \t]+|[ \t]+$", "");
        if (value.startsWith("\"")) {
            return new IdempotencyKey(printable(unquoted(value)));
        }
        if (!TOKEN.matcher(value).matches()) {
            throw invalid("must be a quoted string (RFC 8941) or a token, of 1 to " + MAX_LENGTH
                    + " printable ASCII characters");
        }
        return new IdempotencyKey(value);
    }

    /** The content of an sf-string: backslash escapes only a double quote or a backslash. */
    private static String unquoted(String value) {
        StringBuilder key = new StringBuilder();
        for (int i = 1; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                if (i != value.length() - 1) {
                    throw invalid("must hold one quoted string and nothing after it");
                }
                return key.toString();
            }
            if (c == '\\') {
                i++;
                if (i == value.length() || value.charAt(i) != '"' && value.charAt(i) != '\\') {
                    throw invalid("may escape only \" and \\ with a backslash");
                }
                c = value.charAt(i);
            }
            key.append(c);
        }
        throw invalid("has no closing double quote");
    }

    private static String printable(String key) {
        if (!PRINTABLE.matcher(key).matches()) {
            throw invalid("must hold 1 to " + MAX_LENGTH + " printable ASCII characters");
        }
        return key;
    }

    private static Refusal invalid(String message) {
        return Refusal.invalid(HEADER, message);
    }
}
