package dev.evidencestore.render;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.domain.Artifact;
import dev.evidencestore.domain.Citation;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.domain.Finding;
import dev.evidencestore.domain.IncidentRecord;
import org.apache.commons.codec.digest.DigestUtils;
import org.erdtman.jcs.JsonCanonicalizer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The evidence manifest of an incident: every artifact's ID, digest, size, media type and kind, sorted by ID, and
 * the findings with their pinned citations, as RFC 8785 canonical JSON. Its SHA-256 is the {@code manifestDigest}
 * a postmortem prints: anyone can recompute it from the bytes, and from it check every artifact.
 */
public record EvidenceManifest(byte[] bytes, Digest digest) {

    public static final String MEDIA_TYPE = "application/json";
    private static final ObjectMapper JSON = new ObjectMapper();

    public static EvidenceManifest of(IncidentRecord record) {
        Map<String, Object> manifest = new LinkedHashMap<>();
        manifest.put("manifestVersion", 1);
        manifest.put("workspace", record.incident().workspace().slug());
        manifest.put("incident", record.incident().key().value());
        manifest.put("artifacts", record.artifacts().stream()
                .sorted(Comparator.comparing(a -> a.id().toString()))
                .map(EvidenceManifest::artifact).toList());
        manifest.put("findings", record.findings().stream()
                .sorted(Comparator.comparing(f -> f.id().toString()))
                .map(EvidenceManifest::finding).toList());
        byte[] canonical = canonical(manifest);
        return new EvidenceManifest(canonical, Digest.of(DigestUtils.sha256(canonical)));
    }

    private static Map<String, Object> artifact(Artifact a) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", a.id().toString());
        entry.put("digest", a.digest().toString());
        entry.put("size", a.size());
        entry.put("mediaType", a.mediaType());
        entry.put("kind", a.kind().wire());
        return entry;
    }

    private static Map<String, Object> finding(Finding f) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("id", f.id().toString());
        entry.put("kind", f.kind().wire());
        entry.put("status", f.status().wire());
        entry.put("citations", f.citations().stream().map(EvidenceManifest::citation).toList());
        return entry;
    }

    private static Map<String, Object> citation(Citation c) {
        return Map.of("artifactId", c.artifactId().toString(), "digest", c.digest().toString());
    }

    static byte[] canonical(Object value) {
        try {
            return new JsonCanonicalizer(JSON.writeValueAsString(value)).getEncodedUTF8();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the manifest is plain JSON data", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Byte arrays compare by content here, so that equal manifests are equal records. */
    @Override
    public boolean equals(Object other) {
        return other instanceof EvidenceManifest m && m.digest.equals(digest);
    }

    @Override
    public int hashCode() {
        return digest.hashCode();
    }

    @Override
    public String toString() {
        return "EvidenceManifest[" + digest + ", " + bytes.length + " bytes]";
    }
}
