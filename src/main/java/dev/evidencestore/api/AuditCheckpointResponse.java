package dev.evidencestore.api;

import dev.evidencestore.domain.LogCheckpoint;

import java.time.Instant;

/** A signed checkpoint of the audit log; {@code note} is the C2SP signed note, as GET /api/v1/audit/checkpoint serves it. */
public record AuditCheckpointResponse(String origin, long treeSize, String rootHash, String keyId, String note,
                                      Instant at) {

    static AuditCheckpointResponse of(LogCheckpoint c) {
        return new AuditCheckpointResponse(c.origin(), c.treeSize(), c.rootHash(), c.keyId(), c.note(), c.at());
    }
}
