package dev.evidencestore.domain;

import java.time.Instant;

/**
 * A signed statement that the audit chain had {@code chainLength} entries, the last hashing to {@code headHash}, at
 * {@code at}. {@code signature} is Ed25519 over the checkpoint's payload (the audit log's {@code CheckpointPayload});
 * {@code publicKey} is the signer's X.509 key. Both are base64, so anyone holding the published key can check a
 * checkpoint without the service.
 */
public record AuditCheckpoint(long chainLength, String headHash, Instant at, String publicKey, String signature) {
}
