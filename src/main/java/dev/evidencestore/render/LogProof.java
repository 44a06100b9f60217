package dev.evidencestore.render;

import java.util.List;

/**
 * What an evidence bundle carries to prove its review statements offline: the statements, a signed checkpoint that
 * covers the audit entry of every one, those entries' exact leaf bytes with an inclusion proof of each against the
 * checkpoint, and the public key that signed (with its C2SP key ID). Everything here is small: a few hundred bytes
 * per review.
 */
public record LogProof(String origin, List<Statement> statements, String checkpointNote, long treeSize,
                       List<Leaf> leaves, String publicKeyPem, String keyId) {

    /** A review's DSSE envelope, as stored, and the leaf of its entry. */
    public record Statement(long leafIndex, String envelope) {
    }

    /** A leaf's bytes (the entry's canonical JSON) and its RFC 9162 inclusion proof, base64 hashes. */
    public record Leaf(long index, byte[] bytes, List<String> hashes) {
    }

    public LogProof {
        statements = List.copyOf(statements);
        leaves = List.copyOf(leaves);
    }
}
