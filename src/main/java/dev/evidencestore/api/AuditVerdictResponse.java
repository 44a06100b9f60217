package dev.evidencestore.api;

import dev.evidencestore.audit.AuditVerdict;

public record AuditVerdictResponse(boolean intact, long entries, long treeSize, String rootHash, long checkpoints,
                                   long publishedCheckpoints, Long unpublishedCheckpoints, Long firstBrokenSeq,
                                   String reason) {

    static AuditVerdictResponse of(AuditVerdict v) {
        return new AuditVerdictResponse(v.intact(), v.entries(), v.treeSize(), v.rootHash(), v.checkpoints(),
                v.publishedCheckpoints(), v.unpublishedCheckpoints(), v.firstBrokenSeq(), v.reason());
    }
}
