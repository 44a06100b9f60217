package dev.evidencestore.domain;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The service refusing a request for a reason the client can act on. It carries the problem type and
 * any extension members of the problem document (RFC 9457 section 3.2).
 */
public final class Refusal extends RuntimeException {

    private final ProblemType type;
    private final Map<String, Object> extensions = new LinkedHashMap<>();

    public Refusal(ProblemType type, String detail) {
        super(detail, null, false, false);
        this.type = type;
    }

    public static Refusal invalid(String field, String message) {
        return invalid(List.of(new FieldError(field, message)));
    }

    public static Refusal invalid(List<FieldError> errors) {
        String detail = errors.size() == 1
                ? errors.get(0).field() + ": " + errors.get(0).message()
                : errors.size() + " fields are invalid";
        return new Refusal(ProblemType.INVALID_REQUEST, detail).with("errors", List.copyOf(errors));
    }

    public static Refusal notFound(String detail) {
        return new Refusal(ProblemType.NOT_FOUND, detail);
    }

    public Refusal with(String member, Object value) {
        extensions.put(member, value);
        return this;
    }

    public ProblemType type() {
        return type;
    }

    public Map<String, Object> extensions() {
        return Collections.unmodifiableMap(extensions);
    }
}
