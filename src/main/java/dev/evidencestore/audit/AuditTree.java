package dev.evidencestore.audit;

import dev.evidencestore.domain.Refusal;
import dev.evidencestore.persistence.AuditTreeNodes;
import dev.evidencestore.verify.MerkleTree;
import dev.evidencestore.verify.Node;
import dev.evidencestore.verify.SubtreeHashes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The audit log's Merkle tree as stored: roots and RFC 9162 proofs, each computed from the O(log n) perfect subtrees
 * it needs, fetched in one query. Leaf {@code i} is the entry of {@code seq} {@code i + 1}.
 */
@ApplicationScoped
public class AuditTree {

    /** The number of entries the tree holds. */
    @Transactional
    public long size() {
        return AuditTreeNodes.leafCount();
    }

    /** PATH(index, D[0:size]) as base64 hashes. */
    @Transactional
    public List<String> inclusionProof(long index, long size) {
        long stored = AuditTreeNodes.leafCount();
        if (size < 1 || size > stored) {
            throw Refusal.invalid("size", "must be between 1 and the tree size, " + stored);
        }
        if (index < 0 || index >= size) {
            throw Refusal.invalid("index", "must be between 0 and size - 1, " + (size - 1));
        }
        return base64(MerkleTree.inclusionProof(index, size,
                fetched(MerkleTree.nodesForInclusion(index, size))));
    }

    /** PROOF(from, D[0:to]) as base64 hashes. */
    @Transactional
    public List<String> consistencyProof(long from, long to) {
        long stored = AuditTreeNodes.leafCount();
        if (to < 1 || to > stored) {
            throw Refusal.invalid("to", "must be between 1 and the tree size, " + stored);
        }
        if (from < 1 || from > to) {
            throw Refusal.invalid("from", "must be between 1 and to, " + to);
        }
        return base64(MerkleTree.consistencyProof(from, to, fetched(MerkleTree.nodesForConsistency(from, to))));
    }

    /** MTH(D[0:size]) of the stored tree, in the current transaction. */
    static byte[] root(long size) {
        return MerkleTree.root(size, fetched(MerkleTree.nodesForRoot(size)));
    }

    private static SubtreeHashes fetched(Set<Node> nodes) {
        return SubtreeHashes.of(AuditTreeNodes.find(nodes));
    }

    private static List<String> base64(List<byte[]> hashes) {
        Function<byte[], String> encode = Base64.getEncoder()::encodeToString;
        return hashes.stream().map(encode).toList();
    }
}
