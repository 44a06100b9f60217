package dev.evidencestore.verify;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checks of an evidence bundle, one line each, named by the file they concern: every file against
 * {@code SHA256SUMS}, every artifact against the manifest, the checkpoint's signature against the given key, then
 * the statements and the log's leaves ({@link LogChecks}).
 */
final class BundleChecks {

    static final String SUMS = "SHA256SUMS";
    static final String MANIFEST = "manifest.json";
    static final String POSTMORTEM = "postmortem.md";
    static final String CHECKPOINT = "checkpoint/checkpoint.txt";
    static final String BUNDLED_KEY = "keys/audit-public.pem";
    private static final Pattern SUM_LINE = Pattern.compile("([0-9a-f]{64})  (.+)");

    private final EvidenceZip zip;
    private final GivenKeys keys;
    private final Checks checks;
    private final Map<String, String> hashes = new HashMap<>();

    BundleChecks(EvidenceZip zip, GivenKeys keys, Checks checks) {
        this.zip = zip;
        this.keys = keys;
        this.checks = checks;
    }

    void run() throws IOException {
        sums();
        Map<String, String> artifacts = manifest();
        Checkpoint checkpoint = checkpoint();
        bundledKey();
        new LogChecks(zip, keys, checks, artifacts, checkpoint).run();
    }

    /** Every file is listed in SHA256SUMS, once, and hashes to its line. */
    private void sums() throws IOException {
        Optional<String> listing = zip.text(SUMS);
        if (listing.isEmpty()) {
            checks.fail(SUMS, "missing, so nothing in the bundle can be checked against it");
            return;
        }
        Map<String, String> listed = new LinkedHashMap<>();
        List<String> lines = listing.get().lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            Matcher line = SUM_LINE.matcher(lines.get(i));
            if (!line.matches()) {
                checks.fail(SUMS, "line " + (i + 1) + " is not \"<sha256 hex>  <path>\"");
            } else if (listed.put(line.group(2), line.group(1)) != null) {
                checks.fail(SUMS, "lists " + line.group(2) + " twice");
            }
        }
        for (Map.Entry<String, String> file : listed.entrySet()) {
            if (!zip.has(file.getKey())) {
                checks.fail(file.getKey(), "listed in " + SUMS + " but not in the bundle");
            } else if (sha256(file.getKey()).equals(file.getValue())) {
                checks.pass(file.getKey(), "SHA-256 as listed in " + SUMS);
            } else {
                checks.fail(file.getKey(), "SHA-256 " + sha256(file.getKey()) + " differs from its line in " + SUMS);
            }
        }
        zip.files().stream().filter(name -> !name.equals(SUMS) && !listed.containsKey(name))
                .forEach(name -> checks.fail(name, "in the bundle but not listed in " + SUMS));
    }

    /** The manifest's artifacts, ID to hex digest; each must be a file of the bundle with that SHA-256. */
    private Map<String, String> manifest() throws IOException {
        Map<String, String> artifacts = new LinkedHashMap<>();
        Optional<byte[]> bytes = zip.bytes(MANIFEST);
        if (bytes.isEmpty()) {
            checks.fail(MANIFEST, "missing");
            return artifacts;
        }
        try {
            Map<String, Object> manifest = Json.object(Json.parse(new String(bytes.get(), StandardCharsets.UTF_8)),
                    MANIFEST);
            for (Object item : Json.array(manifest.get("artifacts"), "artifacts")) {
                Map<String, Object> artifact = Json.object(item, "an artifact");
                String digest = Json.string(artifact.get("digest"), "digest");
                artifacts.put(Json.string(artifact.get("id"), "id"), digest.substring(digest.indexOf(':') + 1));
            }
        } catch (MalformedInput e) {
            checks.fail(MANIFEST, e.getMessage());
            return artifacts;
        }
        for (Map.Entry<String, String> artifact : artifacts.entrySet()) {
            String file = artifactFile(artifact.getKey());
            if (!zip.has(file)) {
                checks.fail(file, "missing: " + MANIFEST + " lists " + artifact.getKey());
            } else if (sha256(file).equals(artifact.getValue())) {
                checks.pass(file, "SHA-256 is the digest " + MANIFEST + " gives " + artifact.getKey());
            } else {
                checks.fail(file, "SHA-256 " + sha256(file) + " is not the digest " + MANIFEST + " gives "
                        + artifact.getKey());
            }
        }
        zip.under("artifacts/").stream().filter(file -> artifacts.keySet().stream()
                        .noneMatch(id -> artifactFile(id).equals(file)))
                .forEach(file -> checks.fail(file, "not an artifact of " + MANIFEST));
        String manifestDigest = "sha256:" + sha256(MANIFEST);
        if (zip.text(POSTMORTEM).map(text -> text.contains(manifestDigest)).orElse(false)) {
            checks.pass(POSTMORTEM, "names the manifest's digest " + manifestDigest);
        } else {
            checks.fail(POSTMORTEM, "missing, or does not name the manifest's digest " + manifestDigest);
        }
        return artifacts;
    }

    /** The checkpoint, if its signature is the given key's; null when it is not, or malformed. */
    private Checkpoint checkpoint() throws IOException {
        Optional<byte[]> bytes = zip.bytes(CHECKPOINT);
        if (bytes.isEmpty()) {
            checks.fail(CHECKPOINT, "missing");
            return null;
        }
        try {
            SignedNote note = SignedNote.parse(bytes.get());
            Checkpoint checkpoint = Checkpoint.parse(note.body());
            Optional<NoteKey> signer = keys.signerOf(note, checkpoint.origin());
            if (signer.isPresent()) {
                checks.pass(CHECKPOINT, "signed by the given key " + signer.get().keyIdHex() + " for "
                        + checkpoint.origin() + ", " + checkpoint.size() + " entries");
                return checkpoint;
            }
            checks.fail(CHECKPOINT, "no valid signature of a given key (" + keys.idsFor(checkpoint.origin())
                    + ") for " + checkpoint.origin());
        } catch (IllegalArgumentException e) { // MalformedInput among them
            checks.fail(CHECKPOINT, e.getMessage());
        }
        return null;
    }

    /** The key the bundle carries is only compared: trusting it would let whoever made the bundle sign it too. */
    private void bundledKey() throws IOException {
        Optional<String> bundled = zip.text(BUNDLED_KEY);
        try {
            if (bundled.isPresent() && keys.includes(Ed25519Keys.readPublicPem(bundled.get()))) {
                return;
            }
        } catch (MalformedInput e) {
            // not a key at all: warned below like any other key
        }
        checks.warn(BUNDLED_KEY, bundled.isEmpty() ? "missing; the given key was used"
                : "is not a given key; it was not used, every signature was checked against the given keys");
    }

    private String sha256(String file) throws IOException {
        String hash = hashes.get(file);
        if (hash == null) {
            hash = zip.sha256(file);
            hashes.put(file, hash);
        }
        return hash;
    }

    /** Where the bundle keeps an artifact: {@code artifacts/} and the name, the ID's last part. */
    static String artifactFile(String artifactId) {
        return "artifacts/" + artifactId.substring(artifactId.lastIndexOf(':') + 1);
    }
}
