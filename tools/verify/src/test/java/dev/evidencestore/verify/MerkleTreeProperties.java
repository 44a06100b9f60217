package dev.evidencestore.verify;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random trees of up to a few thousand leaves, built naively in {@link ReferenceTree}: the roots and proofs of
 * MerkleTree agree with the definition, every proof verifies, and every altered proof fails.
 *
 * <p>Altering the sizes is checked against the other size's real root: a proof's hashes alone cannot tell sizes
 * apart whose paths have the same shape (leaf 0 of 3 and of 4 both take two left turns), so what must fail is the
 * claim that the proof links this leaf or tree to the root of the other size.
 */
class MerkleTreeProperties {

    private static final int MAX_SIZE = 3000;
    /** How many proofs of each tree are altered in every way; all of them are verified unaltered. */
    private static final int ALTERED_PER_TREE = 24;

    @Property(tries = 25)
    void rootsAgreeWithTheDefinition(@ForAll @IntRange(min = 0, max = MAX_SIZE) int size, @ForAll long seed) {
        ReferenceTree tree = ReferenceTree.random(size, seed);
        Random random = new Random(seed);
        assertArrayEquals(tree.root(size), MerkleTree.root(size, tree.subtrees()));
        for (int i = 0; i < 20; i++) {
            int n = random.nextInt(size + 1);
            assertArrayEquals(tree.root(n), MerkleTree.root(n, tree.subtrees()), "root of " + n);
        }
    }

    @Property(tries = 15)
    void everyInclusionProofVerifiesAndEveryAlteredOneFails(
            @ForAll @IntRange(min = 1, max = MAX_SIZE) int size, @ForAll long seed) {
        ReferenceTree tree = ReferenceTree.random(size, seed);
        Random random = new Random(seed);
        byte[] root = tree.root(size);
        for (int index = 0; index < size; index++) {
            List<byte[]> proof = MerkleTree.inclusionProof(index, size, tree.subtrees());
            int leaf = index;
            assertDoesNotThrow(() -> MerkleProof.verifyInclusion(leaf, size, tree.leafHash(leaf), proof, root));
        }
        for (int i = 0; i < ALTERED_PER_TREE; i++) {
            int index = random.nextInt(size);
            List<byte[]> proof = MerkleTree.inclusionProof(index, size, tree.subtrees());
            byte[] leaf = tree.leafHash(index);
            for (List<byte[]> altered : alterations(proof, random)) {
                assertThrows(ProofFailure.class, () -> MerkleProof.verifyInclusion(index, size, leaf, altered, root));
            }
            assertThrows(ProofFailure.class, () -> MerkleProof.verifyInclusion(index, size, flip(leaf, random),
                    proof, root));
            assertThrows(ProofFailure.class, () -> MerkleProof.verifyInclusion(index, size, leaf, proof,
                    flip(root, random)));
            for (long other : List.of(index - 1L, index + 1L, (long) random.nextInt(size), (long) size, -1L)) {
                if (other != index) {
                    assertThrows(ProofFailure.class, () -> MerkleProof.verifyInclusion(other, size, leaf, proof, root),
                            "leaf " + index + " of " + size + " claimed at " + other);
                }
            }
            for (int otherSize : List.of(size - 1, size + 1, size * 2, size / 2, 1 + random.nextInt(size))) {
                if (otherSize != size && otherSize > index) {
                    ReferenceTree larger = otherSize > size ? ReferenceTree.random(otherSize, seed) : tree;
                    byte[] otherRoot = larger.root(otherSize);
                    assertThrows(ProofFailure.class,
                            () -> MerkleProof.verifyInclusion(index, otherSize, leaf, proof, otherRoot),
                            "proof of leaf " + index + " of " + size + " claimed for size " + otherSize);
                }
            }
        }
    }

    @Property(tries = 15)
    void everyConsistencyProofVerifiesAndEveryAlteredOneFails(
            @ForAll @IntRange(min = 1, max = MAX_SIZE) int size, @ForAll long seed) {
        ReferenceTree tree = ReferenceTree.random(size, seed);
        Random random = new Random(seed);
        byte[] toRoot = tree.root(size);
        for (int from = 0; from <= size; from++) {
            List<byte[]> proof = MerkleTree.consistencyProof(from, size, tree.subtrees());
            int first = from;
            assertDoesNotThrow(() -> MerkleProof.verifyConsistency(first, size, tree.root(first), toRoot, proof));
        }
        for (int i = 0; i < ALTERED_PER_TREE; i++) {
            int to = 1 + random.nextInt(size);
            int from = 1 + random.nextInt(to);
            List<byte[]> proof = MerkleTree.consistencyProof(from, to, tree.subtrees());
            byte[] fromRoot = tree.root(from);
            byte[] root = tree.root(to);
            assertDoesNotThrow(() -> MerkleProof.verifyConsistency(from, to, fromRoot, root, proof));
            for (List<byte[]> altered : alterations(proof, random)) {
                assertThrows(ProofFailure.class,
                        () -> MerkleProof.verifyConsistency(from, to, fromRoot, root, altered));
            }
            assertThrows(ProofFailure.class,
                    () -> MerkleProof.verifyConsistency(from, to, flip(fromRoot, random), root, proof));
            assertThrows(ProofFailure.class,
                    () -> MerkleProof.verifyConsistency(from, to, fromRoot, flip(root, random), proof));
            if (from != to) {
                assertThrows(ProofFailure.class, () -> MerkleProof.verifyConsistency(from, to, root, fromRoot, proof),
                        "swapped roots");
            }
            for (int otherFrom : List.of(from - 1, from + 1, 1 + random.nextInt(to))) {
                if (otherFrom != from && otherFrom >= 0 && otherFrom <= to
                        && !sameHashes(proof, MerkleTree.consistencyProof(otherFrom, to, tree.subtrees()))) {
                    byte[] otherRoot = tree.root(otherFrom);
                    assertThrows(ProofFailure.class,
                            () -> MerkleProof.verifyConsistency(otherFrom, to, otherRoot, root, proof),
                            "proof from " + from + " to " + to + " claimed from " + otherFrom);
                }
            }
            for (int otherTo : List.of(to - 1, to + 1, 2 * to, from + random.nextInt(to - from + 1))) {
                if (otherTo != to && otherTo >= from && otherTo <= size) {
                    byte[] otherRoot = tree.root(otherTo);
                    assertThrows(ProofFailure.class,
                            () -> MerkleProof.verifyConsistency(from, otherTo, fromRoot, otherRoot, proof),
                            "proof from " + from + " to " + to + " claimed to " + otherTo);
                }
            }
        }
    }

    /** Every pair of sizes up to 70, exhaustively: the small trees hold every shape of border. */
    @Test
    void everyProofOfTheSmallTreesVerifies() {
        ReferenceTree tree = ReferenceTree.random(70, 6962);
        for (int to = 0; to <= 70; to++) {
            byte[] root = tree.root(to);
            assertArrayEquals(root, MerkleTree.root(to, tree.subtrees()));
            for (int index = 0; index < to; index++) {
                List<byte[]> proof = MerkleTree.inclusionProof(index, to, tree.subtrees());
                MerkleProof.verifyInclusion(index, to, tree.leafHash(index), proof, root);
            }
            for (int from = 0; from <= to; from++) {
                List<byte[]> proof = MerkleTree.consistencyProof(from, to, tree.subtrees());
                MerkleProof.verifyConsistency(from, to, tree.root(from), root, proof);
            }
        }
    }

    /**
     * The nodes named ahead are exactly the nodes the computation reads, all complete in the tree, few; fetched into
     * a map, they give the same proof.
     */
    @Property(tries = 60)
    void recordingTheNodesAndReplayingThemGivesTheSameProofs(
            @ForAll @IntRange(min = 1, max = MAX_SIZE) int size, @ForAll long seed) {
        ReferenceTree tree = ReferenceTree.random(size, seed);
        Random random = new Random(seed);
        int index = random.nextInt(size);
        int from = random.nextInt(size + 1);

        Set<Node> forInclusion = MerkleTree.nodesForInclusion(index, size);
        assertEquals(read(tree, hashes -> MerkleTree.inclusionProof(index, size, hashes)), forInclusion);
        assertSameHashes(MerkleTree.inclusionProof(index, size, tree.subtrees()),
                MerkleTree.inclusionProof(index, size, SubtreeHashes.of(fetch(tree, forInclusion))));

        Set<Node> forConsistency = MerkleTree.nodesForConsistency(from, size);
        assertEquals(read(tree, hashes -> MerkleTree.consistencyProof(from, size, hashes)), forConsistency);
        assertSameHashes(MerkleTree.consistencyProof(from, size, tree.subtrees()),
                MerkleTree.consistencyProof(from, size, SubtreeHashes.of(fetch(tree, forConsistency))));

        Set<Node> forRoot = MerkleTree.nodesForRoot(size);
        assertEquals(Long.bitCount(size), forRoot.size(), "one node per set bit of the size");
        assertArrayEquals(tree.root(size), MerkleTree.root(size, SubtreeHashes.of(fetch(tree, forRoot))));

        for (Set<Node> nodes : List.of(forInclusion, forConsistency, forRoot)) {
            assertTrue(nodes.size() <= 2 * 64, nodes.size() + " nodes");
            for (Node node : nodes) {
                assertTrue(node.firstLeaf() + node.leafCount() <= size, node + " is not complete in " + size);
            }
        }
    }

    @Test
    void theFetchedMapRefusesANodeItDoesNotHold() {
        SubtreeHashes none = SubtreeHashes.of(Map.of());
        assertThrows(IllegalStateException.class, () -> MerkleTree.root(3, none));
    }

    @Test
    void proofsOfWhatIsNotInTheTreeAreRefused() {
        SubtreeHashes tree = ReferenceTree.random(4, 1).subtrees();
        assertThrows(IllegalArgumentException.class, () -> MerkleTree.inclusionProof(4, 4, tree));
        assertThrows(IllegalArgumentException.class, () -> MerkleTree.inclusionProof(-1, 4, tree));
        assertThrows(IllegalArgumentException.class, () -> MerkleTree.consistencyProof(5, 4, tree));
        assertThrows(IllegalArgumentException.class, () -> MerkleTree.root(-1, tree));
    }

    private interface Computation {
        List<byte[]> run(SubtreeHashes hashes);
    }

    /** The nodes a computation reads from the real tree. */
    private static Set<Node> read(ReferenceTree tree, Computation computation) {
        Set<Node> read = new LinkedHashSet<>();
        SubtreeHashes real = tree.subtrees();
        computation.run((level, index) -> {
            read.add(new Node(level, index));
            return real.hash(level, index);
        });
        return read;
    }

    private static Map<Node, byte[]> fetch(ReferenceTree tree, Set<Node> nodes) {
        Map<Node, byte[]> fetched = new HashMap<>();
        for (Node node : nodes) {
            fetched.put(node, tree.subtrees().hash(node.level(), node.index()));
        }
        return fetched;
    }

    /** One bit flipped in each hash, each hash dropped, a hash inserted at each place, and the proof doubled. */
    private static List<List<byte[]>> alterations(List<byte[]> proof, Random random) {
        List<List<byte[]>> altered = new ArrayList<>();
        for (int i = 0; i < proof.size(); i++) {
            List<byte[]> flipped = new ArrayList<>(proof);
            flipped.set(i, flip(proof.get(i), random));
            altered.add(flipped);
            List<byte[]> dropped = new ArrayList<>(proof);
            dropped.remove(i);
            altered.add(dropped);
        }
        for (int i = 0; i <= proof.size(); i++) {
            List<byte[]> added = new ArrayList<>(proof);
            byte[] extra = new byte[MerkleHash.SIZE];
            random.nextBytes(extra);
            added.add(i, extra);
            altered.add(added);
            if (i < proof.size()) {
                List<byte[]> repeated = new ArrayList<>(proof);
                repeated.add(i, proof.get(i));
                altered.add(repeated);
            }
        }
        return altered;
    }

    private static byte[] flip(byte[] hash, Random random) {
        byte[] flipped = hash.clone();
        int bit = random.nextInt(flipped.length * 8);
        flipped[bit / 8] ^= (byte) (1 << (bit % 8));
        return flipped;
    }

    private static boolean sameHashes(List<byte[]> a, List<byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!java.util.Arrays.equals(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static void assertSameHashes(List<byte[]> expected, List<byte[]> actual) {
        assertTrue(sameHashes(expected, actual), "the replayed proof differs");
    }
}
