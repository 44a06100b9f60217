package dev.evidencestore.domain;

import java.time.Instant;
import java.time.LocalDate;

/** A follow-up action of an incident as the service reports it, with whether it is overdue on the given day. */
public record ActionItem(
        SequenceId id,
        String action,
        String owner,
        LocalDate due,
        ActionStatus status,
        boolean overdue,
        Instant createdAt,
        Instant updatedAt,
        String createdBy) {

    /** Overdue from the day after it was due until it is completed; a completed action is never overdue. */
    public static boolean overdueOn(ActionStatus status, LocalDate due, LocalDate today) {
        return status != ActionStatus.COMPLETED && due.isBefore(today);
    }
}
