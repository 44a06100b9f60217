package dev.evidencestore.preview;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** What a recogniser read from the bytes, and where that disagrees with the declared capture details. */
public record Facts(List<Fact> facts, List<Disagreement> disagreements) {

    public static final Facts NONE = new Facts(List.of(), List.of());

    public Facts {
        facts = List.copyOf(facts);
        disagreements = List.copyOf(disagreements);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Collects facts in the order a page shows them; empty values are left out. */
    public static final class Builder {
        private final List<Fact> facts = new ArrayList<>();
        private final List<Disagreement> disagreements = new ArrayList<>();

        public Builder fact(String name, String label, String value) {
            return value == null || value.isBlank() ? this : fact(name, label, List.of(value));
        }

        public Builder fact(String name, String label, Collection<String> values) {
            List<String> present = values.stream().filter(v -> v != null && !v.isBlank()).distinct().toList();
            if (!present.isEmpty()) {
                facts.add(new Fact(name, label, present));
            }
            return this;
        }

        public Builder disagree(String capture, String declared, String found) {
            disagreements.add(new Disagreement(capture, declared, found));
            return this;
        }

        public Facts build() {
            return new Facts(facts, disagreements);
        }
    }
}
