package dev.evidencestore.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.evidencestore.audit.AuditEntry;

import java.time.Instant;
import java.util.Map;

public record AuditEntryResponse(
        long seq,
        Instant at,
        String actor,
        String workspace,
        String method,
        String path,
        String target,
        int status,
        String problem,
        // a member only on replays: its absence keeps the hash of every other entry as it was
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean replayed,
        // members only when a value was cut, or the entry stands for many refusals: the same rule keeps old hashes
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> truncated,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> aggregate,
        String prevHash,
        String entryHash) {

    static AuditEntryResponse of(AuditEntry e) {
        return new AuditEntryResponse(e.seq(), e.at(), e.actor(), e.workspace(), e.method(), e.path(), e.target(),
                e.status(), e.problem(), e.replayed() ? Boolean.TRUE : null, e.truncatedMembers(),
                e.aggregateMembers(), e.prevHash(), e.entryHash());
    }
}
