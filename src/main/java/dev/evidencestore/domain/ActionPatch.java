package dev.evidencestore.domain;

import java.time.LocalDate;
import java.util.Set;

/** A JSON merge patch (RFC 7396) of an action item: only its status and due date may change. */
public record ActionPatch(Set<String> fields, ActionStatus status, LocalDate due) {

    public ActionPatch {
        fields = Set.copyOf(fields);
    }

    public ActionStatus statusOr(ActionStatus current) {
        return fields.contains("status") ? status : current;
    }

    public LocalDate dueOr(LocalDate current) {
        return fields.contains("due") ? due : current;
    }
}
