package dev.evidencestore.http;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The name of the operation a request asked for, as an aggregate audit entry lists it: the method and the shape of
 * the path, such as {@code POST /api/v1/artifacts/{id}/verifications}, never the path the client sent. The shape
 * is read from the path alone, as the contract lays it out, since a request refused before routing (beyond the
 * limit on unauthenticated writes) has no resource: the segment after {@code workspaces}, {@code incidents},
 * {@code artifacts}, {@code findings}, {@code actions} and {@code blobs} is that collection's parameter, another
 * segment that is a plain word stays, and anything else is {@code {}}. Bounded: at most a few segments, each a
 * short word, and the method cut to a short HTTP token.
 */
final class Operations {

    private static final int MAX_METHOD = 16;
    private static final int MAX_SEGMENTS = 8;
    private static final Pattern WORD = Pattern.compile("[a-z][a-z0-9-]{0,23}");
    private static final Map<String, String> PARAMETERS = Map.of("workspaces", "{workspace}", "incidents", "{key}",
            "artifacts", "{id}", "findings", "{id}", "actions", "{id}", "blobs", "{digest}");

    private Operations() {
    }

    static String of(String method, String path) {
        StringBuilder shape = new StringBuilder();
        String[] segments = path.split("/", -1);
        String parameter = null;
        int shown = 0;
        for (String segment : segments) {
            if (segment.isEmpty()) {
                continue;
            }
            if (shown++ == MAX_SEGMENTS) {
                shape.append("/…");
                break;
            }
            if (parameter != null) {
                shape.append('/').append(parameter);
                parameter = null;
            } else {
                boolean word = WORD.matcher(segment).matches();
                shape.append('/').append(word ? segment : "{}");
                parameter = word ? PARAMETERS.get(segment) : null;
            }
        }
        return token(method) + " " + (shape.isEmpty() ? "/" : shape);
    }

    /** The method as an HTTP token (RFC 9110) of at most a few characters: anything else becomes {@code ?}. */
    private static String token(String method) {
        StringBuilder token = new StringBuilder();
        for (int i = 0; i < method.length() && token.length() < MAX_METHOD; i++) {
            char c = method.charAt(i);
            boolean allowed = c < 0x7f && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0);
            token.append(allowed ? c : '?');
        }
        return token.toString();
    }
}
