package dev.evidencestore.verify;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The published test data of transparency-dev/merkle (Apache-2.0): its JSON proof vectors, saved under
 * src/test/resources/merkle (see the README there), and the reference tree of eight leaves of its
 * testonly/constants.go, with every root and perfect-subtree hash.
 */
class MerkleVectorsTest {

    private static final HexFormat HEX = HexFormat.of();
    private static final List<byte[]> LEAVES = Stream.of("", "00", "10", "2021", "3031", "40414243",
            "5051525354555657", "606162636465666768696a6b6c6d6e6f").map(HEX::parseHex).toList();
    /** RootHashes() of constants.go: the root of the first n leaves, for n from 0 to 8. */
    private static final List<String> ROOTS = List.of(
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328");
    /** NodeHashes() of constants.go: every perfect subtree, by level. */
    private static final List<List<String>> NODES = List.of(
            List.of("6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                    "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                    "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
                    "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
                    "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                    "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
                    "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
                    "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1"),
            List.of("fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
                    "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                    "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                    "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0"),
            List.of("d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                    "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"),
            List.of("5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"));

    @Test
    void theReferenceTreeHasThePublishedNodesAndRoots() {
        SubtreeHashes tree = SubtreeHashes.ofLeaves(LEAVES.stream().map(MerkleHash::leaf).toList());
        for (int level = 0; level < NODES.size(); level++) {
            for (int index = 0; index < NODES.get(level).size(); index++) {
                assertEquals(NODES.get(level).get(index), HEX.formatHex(tree.hash(level, index)),
                        "node (" + level + ", " + index + ")");
            }
        }
        for (int size = 0; size < ROOTS.size(); size++) {
            assertEquals(ROOTS.get(size), HEX.formatHex(MerkleTree.root(size, tree)), "root of " + size);
        }
        assertEquals(ROOTS.get(0), HEX.formatHex(MerkleHash.empty()));
    }

    /** The happy paths of the vectors are exactly the proofs MerkleTree builds over the reference tree. */
    @Test
    void theHappyPathsAreTheProofsBuiltHere() throws IOException {
        SubtreeHashes tree = SubtreeHashes.ofLeaves(LEAVES.stream().map(MerkleHash::leaf).toList());
        int seen = 0;
        for (Path file : vectors("inclusion")) {
            Map<String, Object> vector = read(file);
            if (file.getFileName().toString().equals("happy-path.json")) {
                List<byte[]> built = MerkleTree.inclusionProof(Json.integer(vector.get("leafIdx"), "leafIdx"),
                        Json.integer(vector.get("treeSize"), "treeSize"), tree);
                assertHashes(hashes(vector.get("proof")), built, file.toString());
                seen++;
            }
        }
        for (Path file : vectors("consistency")) {
            Map<String, Object> vector = read(file);
            if (file.getFileName().toString().equals("happy-path.json")) {
                List<byte[]> built = MerkleTree.consistencyProof(Json.integer(vector.get("size1"), "size1"),
                        Json.integer(vector.get("size2"), "size2"), tree);
                assertHashes(hashes(vector.get("proof")), built, file.toString());
                seen++;
            }
        }
        assertEquals(10, seen, "happy paths read");
    }

    @TestFactory
    Stream<DynamicTest> inclusionVectors() throws IOException {
        return vectors("inclusion").stream().map(file -> DynamicTest.dynamicTest(name(file), () -> {
            Map<String, Object> vector = read(file);
            Runnable check = () -> MerkleProof.verifyInclusion(Json.integer(vector.get("leafIdx"), "leafIdx"),
                    Json.integer(vector.get("treeSize"), "treeSize"), bytes(vector.get("leafHash")),
                    hashes(vector.get("proof")), bytes(vector.get("root")));
            expect(vector, check);
        }));
    }

    @TestFactory
    Stream<DynamicTest> consistencyVectors() throws IOException {
        return vectors("consistency").stream().map(file -> DynamicTest.dynamicTest(name(file), () -> {
            Map<String, Object> vector = read(file);
            Runnable check = () -> MerkleProof.verifyConsistency(Json.integer(vector.get("size1"), "size1"),
                    Json.integer(vector.get("size2"), "size2"), bytes(vector.get("root1")),
                    bytes(vector.get("root2")), hashes(vector.get("proof")));
            expect(vector, check);
        }));
    }

    private static void expect(Map<String, Object> vector, Runnable check) {
        if (Boolean.TRUE.equals(vector.get("wantErr"))) {
            ProofFailure failure = assertThrows(ProofFailure.class, check::run);
            assertTrue(failure.getMessage().length() > 20, "a failure says what failed: " + failure.getMessage());
        } else {
            assertDoesNotThrow(check::run);
        }
    }

    private static void assertHashes(List<byte[]> expected, List<byte[]> actual, String what) {
        assertEquals(expected.size(), actual.size(), what + ": proof length");
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), what + ": hash " + i);
        }
    }

    private static List<Path> vectors(String kind) throws IOException {
        URL root = MerkleVectorsTest.class.getResource("/merkle/" + kind);
        if (root == null) {
            throw new IOException("the test vectors /merkle/" + kind + " are not on the test classpath");
        }
        try (Stream<Path> files = Files.walk(Path.of(root.toURI()))) {
            List<Path> found = files.filter(path -> path.toString().endsWith(".json")).sorted().toList();
            if (found.isEmpty()) {
                throw new IOException("no vectors under /merkle/" + kind);
            }
            return found;
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
    }

    private static String name(Path file) {
        return file.getParent().getFileName() + "/" + file.getFileName();
    }

    private static Map<String, Object> read(Path file) throws IOException {
        return Json.object(Json.parse(Files.readString(file)), file.toString());
    }

    private static byte[] bytes(Object base64) {
        return Base64.getDecoder().decode(Json.string(base64, "hash"));
    }

    private static List<byte[]> hashes(Object proof) {
        List<byte[]> hashes = new ArrayList<>();
        if (proof != null) {
            for (Object hash : Json.array(proof, "proof")) {
                hashes.add(bytes(hash));
            }
        }
        return hashes;
    }
}
