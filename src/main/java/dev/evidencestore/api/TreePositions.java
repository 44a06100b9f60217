package dev.evidencestore.api;

import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Violations;

/** The leaf indexes and tree sizes of the proof queries: required, decimal, not negative. */
record TreePositions(long first, long second) {

    static TreePositions parse(String firstName, String first, String secondName, String second) {
        Violations v = new Violations();
        Long a = v.parse(firstName, v.required(firstName, first), text -> position(firstName, text));
        Long b = v.parse(secondName, v.required(secondName, second), text -> position(secondName, text));
        v.throwIfAny();
        return new TreePositions(a, b);
    }

    static long position(String name, String text) {
        if (text.matches("0|[1-9][0-9]{0,17}")) {
            return Long.parseLong(text);
        }
        throw Refusal.invalid(name, "must be a decimal integer from 0 to 999999999999999999");
    }
}
