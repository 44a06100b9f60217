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

    /** An invalid request lists this many offending fields at most; {@code errorCount} says how many there were. */
    public static final int MAX_LISTED_ERRORS = 50;

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
        return invalid(errors, errors.size());
    }

    /**
     * The refusal of {@code total} invalid fields, of which {@code errors} are the first: a bounded answer however
     * many fields a body gets wrong.
     */
    public static Refusal invalid(List<FieldError> errors, int total) {
        List<FieldError> listed = List.copyOf(errors.subList(0, Math.min(errors.size(), MAX_LISTED_ERRORS)));
        String detail = total == 1 ? listed.get(0).field() + ": " + listed.get(0).message()
                : total + " fields are invalid";
        return new Refusal(ProblemType.INVALID_REQUEST, detail).with("errors", listed).with("errorCount", total);
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
