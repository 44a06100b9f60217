package dev.evidencestore.domain;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Collects every invalid field of one request so the client hears about all of them at once. */
public final class Violations {

    private final List<FieldError> errors = new ArrayList<>();

    /** Parses a value, recording the refusal under {@code field} instead of throwing; null when absent or invalid. */
    public <T> T parse(String field, String raw, Function<String, T> parser) {
        if (raw == null) {
            return null;
        }
        try {
            return parser.apply(raw);
        } catch (Refusal refusal) {
            errors.add(new FieldError(field, messageOf(refusal)));
            return null;
        }
    }

    public <T> T required(String field, T value) {
        if (value == null) {
            errors.add(new FieldError(field, "is required"));
        }
        return value;
    }

    public void add(String field, String message) {
        errors.add(new FieldError(field, message));
    }

    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw Refusal.invalid(errors);
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
