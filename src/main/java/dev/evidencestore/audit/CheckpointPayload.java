package dev.evidencestore.audit;

import dev.evidencestore.domain.AuditCheckpoint;
import dev.evidencestore.verify.Ed25519Keys;

import java.security.PublicKey;
import java.time.Instant;
import java.util.Base64;
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

    /** Checkpoints of the chain carry their key as base64 X.509 and their signature as base64. */
    static boolean signatureHolds(AuditCheckpoint checkpoint) {
        try {
            PublicKey key = Ed25519Keys.readPublicPem("-----BEGIN PUBLIC KEY-----\n" + checkpoint.publicKey()
                    + "\n-----END PUBLIC KEY-----\n");
            return Ed25519Keys.verify(key, of(checkpoint.chainLength(), checkpoint.headHash(), checkpoint.at()),
                    Base64.getDecoder().decode(checkpoint.signature()));
        } catch (IllegalArgumentException malformed) {
            return false;
        }
    }
}
