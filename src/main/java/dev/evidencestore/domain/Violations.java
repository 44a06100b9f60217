package dev.evidencestore.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Collects the invalid fields of one request so the client hears about them at once: every one counted, the first
 * {@link Refusal#MAX_LISTED_ERRORS} kept, so a body of a hundred thousand bad items costs no more than fifty.
 */
public final class Violations {

    private final List<FieldError> errors = new ArrayList<>();
    private int count;

    /** Parses a value, recording the refusal under {@code field} instead of throwing; null when absent or invalid. */
    public <T> T parse(String field, String raw, Function<String, T> parser) {
        if (raw == null) {
            return null;
        }
        try {
            return parser.apply(raw);
        } catch (Refusal refusal) {
            add(field, messageOf(refusal));
            return null;
        }
    }

    public <T> T required(String field, T value) {
        if (value == null) {
            add(field, "is required");
        }
        return value;
    }

    public void add(String field, String message) {
        count++;
        if (errors.size() < Refusal.MAX_LISTED_ERRORS) {
            errors.add(new FieldError(field, message));
        }
    }

    public void throwIfAny() {
        if (count > 0) {
            throw Refusal.invalid(errors, count);
        }
    }

    private static String messageOf(Refusal refusal) {
        Object nested = refusal.extensions().get("errors");
        if (nested instanceof List<?> list && list.size() == 1 && list.get(0) instanceof FieldError error) {
            return error.message();
        }
        return refusal.getMessage();
    }
}
