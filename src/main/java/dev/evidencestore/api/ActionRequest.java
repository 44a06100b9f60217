package dev.evidencestore.api;

import dev.evidencestore.domain.ActionDraft;
import dev.evidencestore.domain.ActionStatus;
import dev.evidencestore.domain.Refusal;
import dev.evidencestore.domain.Violations;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/** Body of {@code POST /workspaces/{ws}/incidents/{key}/actions}. */
public record ActionRequest(String action, String owner, String due, String status) {

    /** Four-digit years only: ISO_LOCAL_DATE alone would also take {@code +12026-07-01}. */
    private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");

    /** A new action. A missing status means nobody has started on it yet. */
    ActionDraft toDraft() {
        Violations v = new Violations();
        text(v, "action", action, TextRules.PROSE);
        text(v, "owner", owner, TextRules.LINE);
        LocalDate parsedDue = v.parse("due", v.required("due", due), ActionRequest::date);
        ActionStatus parsedStatus = v.parse("status", status, ActionStatus::parse);
        v.throwIfAny();
        return new ActionDraft(action, owner, parsedDue, parsedStatus == null ? ActionStatus.OPEN : parsedStatus);
    }

    private static void text(Violations v, String field, String value, int maxLength) {
        if (v.required(field, value) != null && value.isBlank()) {
            v.add(field, "must not be blank");
        }
        TextRules.check(v, field, value, maxLength);
    }

    /** A calendar date, {@code YYYY-MM-DD}; no time and no zone, since a due date is a day. */
    static LocalDate date(String text) {
        try {
            if (DATE.matcher(text).matches()) {
                LocalDate date = LocalDate.parse(text, DateTimeFormatter.ISO_LOCAL_DATE);
                if (date.getYear() >= 1) {
                    return date;
                }
            }
        } catch (DateTimeParseException e) {
            // refused below, with the rule
        }
        throw Refusal.invalid("due", "must be a date YYYY-MM-DD, e.g. 2026-07-01");
    }
}
