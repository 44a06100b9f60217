package dev.evidencestore.api;

import dev.evidencestore.domain.Decision;
import dev.evidencestore.domain.ReviewDraft;
import dev.evidencestore.domain.Violations;

/** Body of a review of a finding or a root cause. */
public record ReviewRequest(String decision, String note) {

    ReviewDraft toDraft() {
        Violations v = new Violations();
        Decision parsed = v.parse("decision", v.required("decision", decision), Decision::parse);
        if (v.required("note", note) != null && note.isBlank()) {
            v.add("note", "must say what the reviewer checked");
        }
        TextRules.check(v, "note", note, TextRules.PROSE);
        v.throwIfAny();
        return new ReviewDraft(parsed, note);
    }
}
