package dev.evidencestore.api;

import dev.evidencestore.audit.AuditVerdict;

public record AuditVerdictResponse(boolean intact, long entries, long checkpoints, Long firstBrokenSeq,
                                   String reason) {

    static AuditVerdictResponse of(AuditVerdict v) {
        return new AuditVerdictResponse(v.intact(), v.entries(), v.checkpoints(), v.firstBrokenSeq(), v.reason());
    }
}
