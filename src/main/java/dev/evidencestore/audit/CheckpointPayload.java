package dev.evidencestore.audit;

import dev.evidencestore.domain.AuditCheckpoint;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/** The bytes a checkpoint signs, and the check of a checkpoint's signature over them. */
final class CheckpointPayload {

    private CheckpointPayload() {
    }

    /** The canonical JSON of {@code {chainLength, headHash, at}}, {@code at} as the API writes it. */
    static byte[] of(long chainLength, String headHash, Instant at) {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("chainLength", chainLength);
        members.put("headHash", headHash);
        members.put("at", at.toString());
        return CanonicalJson.of(members);
    }

    static boolean signatureHolds(AuditCheckpoint checkpoint) {
        return Ed25519.verifies(checkpoint.publicKey(),
                of(checkpoint.chainLength(), checkpoint.headHash(), checkpoint.at()), checkpoint.signature());
    }
}
