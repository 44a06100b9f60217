package dev.evidencestore.audit;

import dev.evidencestore.persistence.AuditCheckpointEntity;
import dev.evidencestore.persistence.AuditEntryEntity;
import dev.evidencestore.persistence.AuditTreeCheckpointEntity;
import dev.evidencestore.persistence.AuditTreeNodes;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.Node;
import io.quarkus.narayana.jta.QuarkusTransaction;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Re-walks the whole audit log: the hash chain, the Merkle tree rebuilt from the entries and compared node by node
 * with the stored one, and every checkpoint, against the trusted keys only: the stored ones, one a caller holds, and
 * every one published outside the database. Entries are
 * read a page at a time, each page in a short transaction of its own, so neither memory nor a database transaction
 * grows with the length of the log.
 */
@ApplicationScoped
public class AuditVerifier {

    private static final int PAGE = 500;

    private final AuditLog log;
    private final CheckpointChecks checks;
    private final PublishedChecks published;

    AuditVerifier(AuditLog log, CheckpointChecks checks, PublishedChecks published) {
        this.log = log;
        this.checks = checks;
        this.published = published;
    }

    /** Verifies the log, and that it extends {@code held}, a signed checkpoint the caller kept, if given. */
    public AuditVerdict verify(Optional<HeldCheckpoint> held) {
        log.awaitSequenced();
        // fix the bounds first, checkpoints before entries, so every checkpoint checked covers only entries walked
        Bounds bounds = QuarkusTransaction.requiringNew().call(Bounds::now);
        Walk walk = new Walk(bounds.leaves());
        long after = 0;
        List<AuditEntry> page;
        do {
            page = log.range(after, bounds.lastSeq(), PAGE);
            List<AuditEntry> entries = page;
            QuarkusTransaction.requiringNew().run(() -> walk.next(entries));
            after = page.isEmpty() ? after : page.get(page.size() - 1).seq();
        } while (page.size() == PAGE);
        ChainBreak broken = walk.finish(bounds);
        CheckpointChecks.Checked checked = checks.all(bounds.legacyCheckpoints(), bounds.treeCheckpoints(),
                bounds.leaves(), held);
        PublishedChecks.Checked anchored = published.all(bounds.treeCheckpoints(), bounds.leaves());
        String root = bounds.leaves() == walk.tree.size()
                ? Base64.getEncoder().encodeToString(walk.tree.root()) : null;
        ChainBreak first = broken != null ? broken : checked.broken() != null ? checked.broken() : anchored.broken();
        return AuditVerdict.of(walk.chain.entries(), bounds.leaves(), root, checked.count(), anchored.count(),
                anchored.unpublished(), first);
    }

    /** What the verification covers, fixed before it starts. */
    private record Bounds(long lastSeq, long leaves, long legacyCheckpoints, long treeCheckpoints) {

        static Bounds now() {
            AuditCheckpointEntity legacy = AuditCheckpointEntity.<AuditCheckpointEntity>find("order by id desc")
                    .firstResult();
            AuditTreeCheckpointEntity tree = AuditTreeCheckpointEntity.latest();
            long lastSeq = AuditEntryEntity.tip().map(AuditEntryEntity.ChainTip::seq).orElse(0L);
            return new Bounds(lastSeq, AuditTreeNodes.leafCount(),
                    legacy == null ? 0 : legacy.id, tree == null ? 0 : tree.id);
        }
    }

    /** The chain and the tree, rebuilt entry by entry. */
    private static final class Walk {

        final ChainWalk chain = new ChainWalk();
        final TreeFrontier tree = TreeFrontier.empty();
        private final long leaves;
        private ChainBreak treeBroken;

        Walk(long leaves) {
            this.leaves = leaves;
        }

        /** One page, in its own transaction: its entries' leaves and completed subtrees against the stored ones. */
        void next(List<AuditEntry> entries) {
            Map<Node, byte[]> rebuilt = new LinkedHashMap<>();
            for (AuditEntry entry : entries) {
                chain.next(entry);
                if (entry.seq() <= leaves && tree.size() == entry.seq() - 1) {
                    rebuilt.putAll(tree.append(MerkleHash.leaf(entry.canonicalJson())));
                }
            }
            if (treeBroken != null || rebuilt.isEmpty()) {
                return;
            }
            Map<Node, byte[]> stored = AuditTreeNodes.find(rebuilt.keySet());
            for (Map.Entry<Node, byte[]> node : rebuilt.entrySet()) {
                if (!Arrays.equals(node.getValue(), stored.get(node.getKey()))) {
                    treeBroken = nodeBroken(node.getKey(), stored.containsKey(node.getKey()));
                    return;
                }
            }
        }

        ChainBreak finish(Bounds bounds) {
            ChainBreak broken = chain.finish();
            if (broken != null) {
                return broken;
            }
            if (treeBroken != null) {
                return treeBroken;
            }
            if (bounds.leaves() > bounds.lastSeq()) {
                return new ChainBreak(bounds.lastSeq() + 1, "the Merkle tree has " + bounds.leaves()
                        + " leaves but the log only " + bounds.lastSeq() + " entries: entries after "
                        + bounds.lastSeq() + " were removed");
            }
            return null;
        }

        private static ChainBreak nodeBroken(Node node, boolean present) {
            long seq = node.firstLeaf() + 1;
            String which = node.level() == 0 ? "the leaf of entry " + seq
                    : "the stored subtree over entries " + seq + " to " + (node.firstLeaf() + node.leafCount());
            return new ChainBreak(seq, which + (present ? " does not match the entries: the tree was rewritten"
                    : " is missing from the stored tree"));
        }
    }
}
