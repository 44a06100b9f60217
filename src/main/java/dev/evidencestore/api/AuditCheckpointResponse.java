package dev.evidencestore.api;

import dev.evidencestore.domain.AuditCheckpoint;

import java.time.Instant;

public record AuditCheckpointResponse(long chainLength, String headHash, Instant at, String publicKey,
                                      String signature) {

    static AuditCheckpointResponse of(AuditCheckpoint c) {
        return new AuditCheckpointResponse(c.chainLength(), c.headHash(), c.at(), c.publicKey(), c.signature());
    }
}
