package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.FindingDraft;
import dev.evidencestore.domain.FindingKind;
import dev.evidencestore.domain.FindingPatch;
import dev.evidencestore.domain.RecordName;
import dev.evidencestore.domain.Violations;

import java.util.List;
import java.util.Set;

/** Body of {@code POST /workspaces/{ws}/incidents/{key}/findings}, and of a merge patch of a finding. */
public record FindingRequest(String name, String kind, String statement, List<String> artifactIds) {

    FindingDraft toDraft() {
        Violations v = new Violations();
        RecordName parsedName = v.parse("name", v.required("name", name), RecordName::parse);
        FindingKind parsedKind = v.parse("kind", v.required("kind", kind), FindingKind::parse);
        checkStatement(v, v.required("statement", statement));
        List<ArtifactId> cited = CitedIds.parse(v, "artifactIds", artifactIds, ArtifactId::parse, true);
        v.throwIfAny();
        return new FindingDraft(parsedName, parsedKind, statement, cited);
    }

    /** A merge patch may change the statement and the citations of a proposed finding, nothing else. */
    FindingPatch toPatch(Set<String> fields) {
        Violations v = new Violations();
        for (String fixed : List.of("name", "kind")) {
            if (fields.contains(fixed)) {
                v.add(fixed, "cannot be changed; propose a new finding instead");
            }
        }
        if (fields.contains("statement")) {
            checkStatement(v, v.required("statement", statement));
        }
        List<ArtifactId> cited = fields.contains("artifactIds")
                ? CitedIds.parse(v, "artifactIds", artifactIds, ArtifactId::parse, true) : null;
        v.throwIfAny();
        return new FindingPatch(statement, cited);
    }

    private static void checkStatement(Violations v, String statement) {
        if (statement != null && statement.isBlank()) {
            v.add("statement", "must not be blank");
        }
        TextRules.check(v, "statement", statement, TextRules.PROSE);
    }
}
