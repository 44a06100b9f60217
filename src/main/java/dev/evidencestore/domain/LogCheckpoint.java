package dev.evidencestore.domain;

import java.time.Instant;

/**
 * A signed checkpoint of the audit log: the C2SP signed note ({@code note}, byte for byte as served) that commits
 * the log to the Merkle tree of {@code treeSize} entries with root {@code rootHash} (base64), signed by the key whose
 * C2SP key hash is {@code keyId} (hex), written {@code at}. The time is the service's record of when it signed; the
 * note itself carries only what it commits to.
 */
public record LogCheckpoint(String origin, long treeSize, String rootHash, String keyId, String note, Instant at) {
}
