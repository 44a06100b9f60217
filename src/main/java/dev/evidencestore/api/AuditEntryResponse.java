package dev.evidencestore.api;

import dev.evidencestore.audit.AuditEntry;

import java.time.Instant;

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
        String prevHash,
        String entryHash) {

    static AuditEntryResponse of(AuditEntry e) {
        return new AuditEntryResponse(e.seq(), e.at(), e.actor(), e.workspace(), e.method(), e.path(), e.target(),
                e.status(), e.problem(), e.prevHash(), e.entryHash());
    }
}
