package dev.evidencestore.audit;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A signed statement that the audit chain had {@code chainLength} entries, the last hashing to {@code headHash}, at
 * {@code at}. {@code signature} is Ed25519 over {@link #payload()}; {@code publicKey} is the signer's X.509 key. Both
 * are base64, so anyone holding the published key can check a checkpoint without the service.
 */
public record AuditCheckpoint(long chainLength, String headHash, Instant at, String publicKey, String signature) {

    /** The signed bytes: the canonical JSON of {@code {chainLength, headHash, at}}, {@code at} as the API writes it. */
    static byte[] payload(long chainLength, String headHash, Instant at) {
        Map<String, Object> members = new LinkedHashMap<>();
        members.put("chainLength", chainLength);
        members.put("headHash", headHash);
        members.put("at", at.toString());
        return CanonicalJson.of(members);
    }

    byte[] payload() {
        return payload(chainLength, headHash, at);
    }

    boolean signatureHolds() {
        return Ed25519.verifies(publicKey, payload(), signature);
    }
}
