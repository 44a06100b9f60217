package dev.evidencestore.domain;

import java.util.Arrays;
import java.util.stream.Collectors;

/** An enumeration whose constants have a fixed spelling on the wire and in the database. */
public interface WireEnum {

    String wire();

    static <E extends Enum<E> & WireEnum> E parse(Class<E> type, String field, String text) {
        for (E constant : type.getEnumConstants()) {
            if (constant.wire().equals(text)) {
                return constant;
            }
        }
        String allowed = Arrays.stream(type.getEnumConstants()).map(WireEnum::wire).collect(Collectors.joining(", "));
        throw Refusal.invalid(field, "must be one of " + allowed);
    }
}
