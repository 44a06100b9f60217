package dev.evidencestore.api;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.TimelineEntryDraft;
import dev.evidencestore.domain.Violations;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Body of {@code POST /workspaces/{ws}/incidents/{key}/timeline}. */
public record TimelineEntryRequest(String at, String event, List<String> artifactIds) {

    TimelineEntryDraft toDraft() {
        Violations v = new Violations();
        Instant parsedAt = v.parse("at", v.required("at", at), Timestamps::parse);
        if (v.required("event", event) != null && event.isBlank()) {
            v.add("event", "must not be blank");
        }
        TextRules.check(v, "event", event, TextRules.PROSE);
        List<ArtifactId> cited = cited(v);
        v.throwIfAny();
        return new TimelineEntryDraft(parsedAt, event, cited);
    }

    /** Each artifact at most once: a repeated citation is a mistake in the request, not more evidence. */
    private List<ArtifactId> cited(Violations v) {
        List<ArtifactId> ids = new ArrayList<>();
        if (artifactIds == null) {
            return ids;
        }
        if (artifactIds.size() > TextRules.MAX_ITEMS) {
            v.add("artifactIds", "must have at most " + TextRules.MAX_ITEMS + " items");
        }
        Map<ArtifactId, Integer> firstIndex = new HashMap<>();
        for (int i = 0; i < artifactIds.size(); i++) {
            String field = "artifactIds[" + i + "]";
            ArtifactId id = v.parse(field, v.required(field, artifactIds.get(i)), ArtifactId::parse);
            if (id == null) {
                continue;
            }
            Integer first = firstIndex.putIfAbsent(id, i);
            if (first != null) {
                v.add(field, "repeats artifactIds[" + first + "]; cite each artifact once");
            } else {
                ids.add(id);
            }
        }
        return ids;
    }
}
