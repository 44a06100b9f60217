package dev.evidencestore.api;

import dev.evidencestore.domain.ActionItem;

import java.time.Instant;
import java.time.LocalDate;

public record ActionResponse(
        String id,
        String action,
        String owner,
        LocalDate due,
        String status,
        boolean overdue,
        Instant createdAt,
        Instant updatedAt,
        String createdBy) {

    static ActionResponse of(ActionItem item) {
        return new ActionResponse(item.id().toString(), item.action(), item.owner(), item.due(),
                item.status().wire(), item.overdue(), item.createdAt(), item.updatedAt(),
                item.createdBy());
    }
}
