package dev.evidencestore.domain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The readable IDs and slugs: what parses, what it prints back as, and how a bad one is refused. */
class IdentifiersTest {

    private static void refused(Runnable parse, String field, String message) {
        Refusal refusal = assertThrows(Refusal.class, parse::run);
        assertEquals(ProblemType.INVALID_REQUEST, refusal.type());
        assertEquals(List.of(new FieldError(field, message)), refusal.extensions().get("errors"));
    }

    @Test
    void scopedIdsRoundTrip() {
        ArtifactId artifact = ArtifactId.parse("artifact:demo:v1:INC-1423:grafana-checkout");
        assertEquals(new Workspace("demo"), artifact.workspace());
        assertEquals(new IncidentKey("INC-1423"), artifact.incident());
        assertEquals(new RecordName("grafana-checkout"), artifact.name());
        assertEquals("artifact:demo:v1:INC-1423:grafana-checkout", artifact.toString());
        assertEquals("finding:demo:v1:INC-1423:queue", FindingId.parse("finding:demo:v1:INC-1423:queue").toString());
        SequenceId action = SequenceId.parse(SequenceId.ACTION, "action:demo:v1:INC-1423:2");
        assertEquals(2, action.number());
        assertEquals("action:demo:v1:INC-1423:2", action.toString());
    }

    @Test
    void aScopedIdOfAnotherShapeOrSchemeIsRefused() {
        String form = "must have the form artifact:{workspace}:v1:{incident}:{name}";
        refused(() -> ArtifactId.parse("finding:demo:v1:INC-1:x"), "id", form);
        refused(() -> ArtifactId.parse("artifact:demo:v2:INC-1:x"), "id", form);
        refused(() -> ArtifactId.parse("artifact:demo:v1:INC-1"), "id", form);
        refused(() -> ArtifactId.parse("artifact:Demo:v1:INC-1:x"), "id",
                form + "; workspace: must match ^[a-z0-9][a-z0-9-]{0,31}$");
        refused(() -> SequenceId.parse(SequenceId.ACTION, "action:demo:v1:INC-1:0"), "id",
                "must have the form action:{workspace}:v1:{incident}:{number}; number: must be a positive number");
    }

    @Test
    void slugsAndKeysFollowTheirRules() {
        refused(() -> Workspace.parse("-demo"), "workspace", "must match ^[a-z0-9][a-z0-9-]{0,31}$");
        refused(() -> IncidentKey.parse("inc-1"), "key", "must match ^[A-Z][A-Z0-9]{0,15}-[0-9]{1,9}$");
        refused(() -> RecordName.parse("a".repeat(65)), "name", "must match ^[a-z0-9][a-z0-9-]{0,63}$");
    }

    @Test
    void aDigestIsSha256InLowercaseHex() {
        String hex = "0123456789abcdef".repeat(4);
        assertEquals("sha256:" + hex, Digest.parse("sha256:" + hex).toString());
        String rule = "must be sha256: followed by 64 lowercase hex digits";
        refused(() -> Digest.parse("sha256:" + hex.toUpperCase()), "digest", rule);
        refused(() -> Digest.parse("sha512:" + hex), "digest", rule);
        refused(() -> Digest.parse(hex), "digest", rule);
        refused(() -> Digest.parse("sha256:" + hex.substring(1)), "digest", rule);
        refused(() -> Digest.parse("sha256:" + hex + "0"), "digest", rule);
        for (String outside : List.of("g", "/", ":", "`", "G", "@", " ", "\u0660")) {
            refused(() -> Digest.parse("sha256:" + outside + hex.substring(1)), "digest", rule);
        }
        refused(() -> new Digest(null), "digest", rule);
    }
}
