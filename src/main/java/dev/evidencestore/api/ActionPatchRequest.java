package dev.evidencestore.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.domain.ActionPatch;
import dev.evidencestore.domain.ActionStatus;
import dev.evidencestore.domain.Violations;

import java.time.LocalDate;
import java.util.Set;
import java.util.TreeSet;

/** A JSON merge patch of an action item: {@code status} and {@code due} may change, nothing else. */
public record ActionPatchRequest(String status, String due) {

    private static final Set<String> CHANGEABLE = Set.of("status", "due");

    /**
     * Reads the patch, naming every field it may not carry before looking at values, so that a client trying to
     * reword an action or reassign it learns at once that those stay as recorded.
     */
    static ActionPatch parse(ObjectNode body, ObjectMapper mapper) throws JsonProcessingException {
        Set<String> fields = new TreeSet<>();
        body.fieldNames().forEachRemaining(fields::add);
        Violations v = new Violations();
        for (String field : fields) {
            if (!CHANGEABLE.contains(field)) {
                v.add(field, "cannot be changed; only status and due can");
            }
        }
        v.throwIfAny();
        return mapper.treeToValue(body, ActionPatchRequest.class).toPatch(fields);
    }

    private ActionPatch toPatch(Set<String> fields) {
        Violations v = new Violations();
        ActionStatus parsedStatus = v.parse("status", status, ActionStatus::parse);
        LocalDate parsedDue = v.parse("due", due, ActionRequest::date);
        for (String field : fields) {
            if (field.equals("status") ? status == null : due == null) {
                v.add(field, "cannot be removed");
            }
        }
        v.throwIfAny();
        return new ActionPatch(fields, parsedStatus, parsedDue);
    }
}
