package dev.evidencestore.domain;

import java.util.function.Function;

/**
 * The shape shared by every readable ID of a record within an incident:
 * {@code {scheme}:{workspace}:v1:{incident}[:{local}]}. The version segment lets the form evolve.
 */
final class ScopedId {

    private static final String VERSION = "v1";

    private ScopedId() {
    }

    /**
     * Splits an ID into workspace, incident key and local part; {@code localLabel} names the local part in error
     * messages ({@code name}, {@code number}), or is null for IDs without one.
     */
    static Parts parse(String text, String scheme, String localLabel) {
        String form = scheme + ":{workspace}:" + VERSION + ":{incident}"
                + (localLabel == null ? "" : ":{" + localLabel + "}");
        String[] parts = text == null ? new String[0] : text.split(":", -1);
        if (parts.length != (localLabel == null ? 4 : 5) || !scheme.equals(parts[0]) || !VERSION.equals(parts[2])) {
            throw Refusal.invalid("id", "must have the form " + form);
        }
        try {
            return new Parts(new Workspace(parts[1]), new IncidentKey(parts[3]), localLabel == null ? null : parts[4],
                    form);
        } catch (Refusal refusal) {
            throw Refusal.invalid("id", "must have the form " + form + "; " + refusal.getMessage());
        }
    }

    static String format(String scheme, Workspace workspace, IncidentKey incident, Object local) {
        String base = scheme + ":" + workspace + ":" + VERSION + ":" + incident;
        return local == null ? base : base + ":" + local;
    }

    record Parts(Workspace workspace, IncidentKey incident, String local, String form) {

        /** Parses the local part, reporting a bad one against the whole ID. */
        <T> T local(Function<String, T> parser) {
            try {
                return parser.apply(local);
            } catch (Refusal refusal) {
                throw Refusal.invalid("id", "must have the form " + form + "; " + refusal.getMessage());
            }
        }
    }
}
