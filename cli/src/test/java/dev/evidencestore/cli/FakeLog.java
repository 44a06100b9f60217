package dev.evidencestore.cli;

import dev.evidencestore.verify.Checkpoint;
import dev.evidencestore.verify.Ed25519Keys;
import dev.evidencestore.verify.MerkleHash;
import dev.evidencestore.verify.SignedNote;

import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

/**
 * A log of at most three leaves served by a {@link FakeSource} as the service serves its own: the latest signed
 * checkpoint, the signing key, and the RFC 9162 consistency proofs between its sizes (1 to 2: the second leaf; 2 to
 * 3: the third). Small enough that every root and proof is written out by hand.
 */
final class FakeLog {

    static final String ORIGIN = "fake.example/audit";

    final KeyPair key;
    private final FakeSource server;
    private final byte[][] leaves = new byte[3][];

    FakeLog(FakeSource server) throws NoSuchAlgorithmException {
        this.server = server;
        this.key = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        for (int i = 0; i < leaves.length; i++) {
            leaves[i] = MerkleHash.leaf(("entry " + i).getBytes(StandardCharsets.UTF_8));
        }
        server.on("GET", "/api/v1/audit/keys", request -> FakeSource.Reply.json("{\"origin\":\"" + ORIGIN
                + "\",\"keys\":[{\"keyId\":\"00000000\",\"name\":\"" + ORIGIN + "\",\"verifierKey\":\"x\","
                + "\"publicKey\":" + Json.write(Json.MAPPER.getNodeFactory().textNode(
                        Ed25519Keys.publicPem(key.getPublic()))) + ",\"role\":\"signing\"}]}"));
        server.on("GET", "/api/v1/audit/proof/consistency?from=1&to=2", request -> proof(leaves[1]));
        server.on("GET", "/api/v1/audit/proof/consistency?from=2&to=3", request -> proof(leaves[2]));
    }

    byte[] root(int size) {
        byte[] two = MerkleHash.node(leaves[0], leaves[1]);
        return switch (size) {
            case 1 -> leaves[0];
            case 2 -> two;
            default -> MerkleHash.node(two, leaves[2]);
        };
    }

    /** Serves the checkpoint of this size and root, signed with this log's key. */
    String serve(int size, byte[] root) {
        String note = SignedNote.sign(new Checkpoint(ORIGIN, size, root).body(), ORIGIN, key.getPrivate());
        server.on("GET", "/api/v1/audit/checkpoint", request -> FakeSource.Reply.text("text/plain", note));
        return note;
    }

    /** Serves a checkpoint signed by another key. */
    String serveSignedBy(KeyPair other, int size) {
        String note = SignedNote.sign(new Checkpoint(ORIGIN, size, root(size)).body(), ORIGIN, other.getPrivate());
        server.on("GET", "/api/v1/audit/checkpoint", request -> FakeSource.Reply.text("text/plain", note));
        return note;
    }

    /** The first leaf replaced: the fork's root of two leaves. */
    byte[] forkedRoot() {
        return MerkleHash.node(MerkleHash.leaf("mallory".getBytes(StandardCharsets.UTF_8)), leaves[1]);
    }

    private static FakeSource.Reply proof(byte[] hash) {
        return FakeSource.Reply.json("{\"from\":0,\"to\":0,\"hashes\":" + Json.write(Json.MAPPER.valueToTree(
                List.of(Base64.getEncoder().encodeToString(hash)))) + "}");
    }
}
