package dev.evidencestore.render;

import dev.evidencestore.domain.Artifact;
import org.apache.commons.codec.binary.Hex;
import org.apache.commons.codec.digest.DigestUtils;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * An incident's evidence as a zip that anyone can check offline: {@code manifest.json}, {@code postmortem.md},
 * {@code artifacts/{name}}, the proof of its reviews ({@code statements/{leaf}.dsse.json}, {@code
 * checkpoint/checkpoint.txt}, {@code log/entries/{leaf}.json}, {@code log/proofs/{leaf}.json}, {@code keys/}),
 * {@code VERIFY.md}, and {@code SHA256SUMS} in {@code sha256sum} format over every other file. It is written straight
 * to the response, artifact by artifact, hashing each file as it goes; only the small proof files are at hand before.
 */
public final class EvidenceBundle {

    /** Opens the stored bytes of an artifact. */
    @FunctionalInterface
    public interface ArtifactBytes {
        InputStream open(Artifact artifact) throws IOException;
    }

    private static final int BUFFER = 64 * 1024;
    static final String CHECKPOINT = "checkpoint/checkpoint.txt";
    static final String PUBLIC_KEY = "keys/audit-public.pem";
    static final String KEY_ID = "keys/audit-key-id.txt";

    private final EvidenceManifest manifest;
    private final String postmortem;
    private final List<Artifact> artifacts;
    private final ArtifactBytes bytes;
    private final LogProof proof;

    public EvidenceBundle(EvidenceManifest manifest, String postmortem, List<Artifact> artifacts, ArtifactBytes bytes,
                          LogProof proof) {
        this.proof = proof;
        this.manifest = manifest;
        this.postmortem = postmortem;
        this.artifacts = List.copyOf(artifacts);
        this.bytes = bytes;
    }

    public void writeTo(OutputStream out) throws IOException {
        try (CompressionProbe probe = new CompressionProbe()) {
            writeTo(new Entries(new ZipOutputStream(out), probe));
        }
    }

    private void writeTo(Entries zip) throws IOException {
        Map<String, String> sums = new LinkedHashMap<>();
        sums.put("manifest.json", entry(zip, "manifest.json", new ByteArrayInputStream(manifest.bytes())));
        sums.put("postmortem.md", entry(zip, "postmortem.md",
                new ByteArrayInputStream(postmortem.getBytes(StandardCharsets.UTF_8))));
        writeArtifacts(zip, sums);
        for (LogProof.Statement statement : proof.statements()) {
            small(zip, sums, "statements/" + statement.leafIndex() + ".dsse.json", statement.envelope());
        }
        small(zip, sums, CHECKPOINT, proof.checkpointNote());
        for (LogProof.Leaf leaf : proof.leaves()) {
            sums.put("log/entries/" + leaf.index() + ".json",
                    entry(zip, "log/entries/" + leaf.index() + ".json", new ByteArrayInputStream(leaf.bytes())));
        }
        for (LogProof.Leaf leaf : proof.leaves()) {
            Map<String, Object> inclusion = new LinkedHashMap<>();
            inclusion.put("index", leaf.index());
            inclusion.put("size", proof.treeSize());
            inclusion.put("hashes", leaf.hashes());
            small(zip, sums, "log/proofs/" + leaf.index() + ".json",
                    new String(EvidenceManifest.canonical(inclusion), StandardCharsets.UTF_8));
        }
        small(zip, sums, PUBLIC_KEY, proof.publicKeyPem());
        small(zip, sums, KEY_ID, proof.keyId() + "\n");
        small(zip, sums, "VERIFY.md", VerifyInstructions.render(proof.origin(), proof.keyId()));
        StringBuilder lines = new StringBuilder();
        sums.forEach((path, hex) -> lines.append(hex).append("  ").append(path).append('\n'));
        entry(zip, "SHA256SUMS", new ByteArrayInputStream(lines.toString().getBytes(StandardCharsets.UTF_8)));
        zip.zip().finish();
        zip.zip().flush();
    }

    /** The archive being written, and what decides how each of its files is compressed. */
    private record Entries(ZipOutputStream zip, CompressionProbe probe) {
    }

    /** Each artifact's bytes, the next one opened before the current is written, so its reading can start early. */
    private void writeArtifacts(Entries zip, Map<String, String> sums) throws IOException {
        InputStream next = artifacts.isEmpty() ? null : bytes.open(artifacts.get(0));
        try {
            for (int i = 0; i < artifacts.size(); i++) {
                try (InputStream in = next) {
                    next = null;
                    next = i + 1 < artifacts.size() ? bytes.open(artifacts.get(i + 1)) : null;
                    String path = "artifacts/" + artifacts.get(i).id().name();
                    sums.put(path, entry(zip, path, in));
                }
            }
        } finally {
            if (next != null) {
                next.close();
            }
        }
    }

    private static void small(Entries zip, Map<String, String> sums, String path, String text)
            throws IOException {
        sums.put(path, entry(zip, path, new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8))));
    }

    /**
     * Writes one file, deflated or stored as its first bytes suggest (both as DEFLATE entries, which every unzip
     * reads), and returns the hex SHA-256 of what was written.
     */
    private static String entry(Entries entries, String path, InputStream in) throws IOException {
        MessageDigest sha256 = DigestUtils.getSha256Digest();
        ZipOutputStream zip = entries.zip();
        byte[] buffer = new byte[BUFFER];
        int n = in.readNBytes(buffer, 0, CompressionProbe.SAMPLE);
        zip.setLevel(entries.probe().levelFor(buffer, n));
        zip.putNextEntry(new ZipEntry(path));
        while (n > 0) {
            sha256.update(buffer, 0, n);
            zip.write(buffer, 0, n);
            n = in.read(buffer);
        }
        zip.closeEntry();
        return Hex.encodeHexString(sha256.digest());
    }
}
