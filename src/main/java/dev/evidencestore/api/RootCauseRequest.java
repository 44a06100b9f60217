package dev.evidencestore.api;

import dev.evidencestore.domain.Confidence;
import dev.evidencestore.domain.FindingId;
import dev.evidencestore.domain.RootCauseDraft;
import dev.evidencestore.domain.Violations;

import java.util.List;

/** Body of {@code PUT /workspaces/{ws}/incidents/{key}/root-cause}. */
public record RootCauseRequest(String statement, String confidence, List<String> findingIds) {

    RootCauseDraft toDraft() {
        Violations v = new Violations();
        if (v.required("statement", statement) != null && statement.isBlank()) {
            v.add("statement", "must not be blank");
        }
        TextRules.check(v, "statement", statement, TextRules.PROSE);
        Confidence parsed = v.parse("confidence", v.required("confidence", confidence), Confidence::parse);
        List<FindingId> cited = CitedIds.parse(v, "findingIds", findingIds, FindingId::parse, true);
        v.throwIfAny();
        return new RootCauseDraft(statement, parsed, cited);
    }
}
