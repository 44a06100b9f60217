package dev.evidencestore.audit;

import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every entry is bounded, whatever the client sent, and says what it cut; entries of the first form hash as before. */
class AuditEntrySizeTest {

    private static final Instant AT = Instant.parse("2026-06-18T09:00:00.123456Z");
    private static final String ZERO = "sha256:" + "0".repeat(64);

    @Test
    void aLongPathIsCutTo256BytesWithItsLengthAndDigest() {
        String path = "/api/v1/artifacts/" + "x".repeat(3_868) + "/verifications";
        AuditEvent event = new AuditEvent("anonymous", null, "POST", path, null, 401, "unauthorized");

        assertEquals(path.substring(0, 256), event.path());
        assertEquals(Map.of("path", new Truncation(3_900, "sha256:" + DigestUtils.sha256Hex(path))),
                event.truncated());
    }

    @Test
    void aCutNeverSplitsACharacter() {
        // 255 bytes of ASCII, then a character of two bytes: the whole character does not fit, so it is left out
        String path = "a".repeat(255) + "é" + "b".repeat(10);
        AuditEvent event = new AuditEvent("anonymous", null, "POST", path, null, 401, "unauthorized");

        assertEquals("a".repeat(255), event.path());
        assertEquals(path.getBytes(StandardCharsets.UTF_8).length, event.truncated().get("path").length());
    }

    @Test
    void valuesWithinTheBoundAreKeptWholeAndTheEntryHashesAsItAlwaysDid() {
        AuditEvent event = new AuditEvent("alice", "demo", "POST", "/api/v1/workspaces/demo/incidents",
                "/api/v1/workspaces/demo/incidents/INC-1", 201, null);
        AuditEntry entry = AuditEntry.chain(1, AT, event, ZERO);

        assertTrue(event.truncated().isEmpty());
        assertNull(entry.truncatedMembers());
        // the first form's canonical JSON, spelled out: no member was added to it
        assertEquals("{\"actor\":\"alice\",\"at\":\"2026-06-18T09:00:00.123456Z\",\"method\":\"POST\","
                        + "\"path\":\"/api/v1/workspaces/demo/incidents\",\"prevHash\":\"" + ZERO + "\",\"problem\":null,"
                        + "\"seq\":1,\"status\":201,\"target\":\"/api/v1/workspaces/demo/incidents/INC-1\","
                        + "\"workspace\":\"demo\"}",
                new String(entry.canonicalJson(), StandardCharsets.UTF_8));
    }

    @Test
    void theTruncationIsPartOfTheHashAndSurvivesItsRow() {
        String path = "/api/v1/artifacts/" + "y".repeat(1_000);
        AuditEntry entry = AuditEntry.chain(7, AT, new AuditEvent("anonymous", null, "POST", path, null, 401,
                "unauthorized"), ZERO);
        String json = new String(entry.canonicalJson(), StandardCharsets.UTF_8);

        assertTrue(json.contains("\"truncated\":{\"path\":{\"digest\":\"sha256:" + DigestUtils.sha256Hex(path)
                + "\",\"length\":1018}}"), json);
        AuditEntry read = AuditEntry.of(entry.toRow());
        assertEquals(entry, read);
        assertEquals(entry.entryHash(), read.computedHash());
        // and the hash changes with the digest of the whole, not only with the kept prefix
        AuditEntry other = AuditEntry.chain(7, AT, new AuditEvent("anonymous", null, "POST", path + "z", null, 401,
                "unauthorized"), ZERO);
        assertEquals(entry.path(), other.path());
        assertTrue(!entry.entryHash().equals(other.entryHash()));
    }

    @Test
    void anEventReadBackFromItsPendingRowIsTheSameEvent() {
        AuditEvent event = new AuditEvent("anonymous", null, "X".repeat(300), "/" + "p".repeat(400),
                "t".repeat(500), 405, "method-not-allowed");
        assertEquals(event, AuditEvent.of(event.toPending(AT)));
        assertEquals(List.of("method", "path", "target"), List.copyOf(event.truncated().keySet()));
    }

    @Test
    void theLargestEntryThereCanBeFitsTheDocumentedBound() {
        // control characters are what JSON writes longest (\\u0001, six bytes for one); every value at its bound
        String worst = "\u0001".repeat(1_000);
        RefusalTallies one = new RefusalTallies(1);
        for (int i = 0; i < 20; i++) {
            one.count(worst, worst, 429, "too-many-requests", i + worst, AT);
        }
        Aggregate widest = one.drain().get(0).aggregate();
        assertEquals(Aggregate.MAX_OPERATIONS, widest.operations().size());
        assertEquals(12, widest.unlisted());
        AuditEvent event = new AuditEvent(worst, "a".repeat(32), worst, worst, worst, 599, "idempotency-key-in-flight",
                true, null, Map.of(), new Aggregate(worst, Long.MAX_VALUE, AT, AT, widest.operations(),
                Long.MAX_VALUE));
        AuditEntry entry = AuditEntry.chain(Long.MAX_VALUE, AT, event, ZERO);

        int size = entry.canonicalJson().length;
        assertTrue(size <= AuditEntry.MAX_CANONICAL_BYTES, "the largest entry takes " + size + " bytes");
        assertTrue(size > AuditEntry.MAX_CANONICAL_BYTES * 9 / 10, "the bound is close: " + size + " bytes");
        AuditEntry.of(entry.toRow());
    }
}
