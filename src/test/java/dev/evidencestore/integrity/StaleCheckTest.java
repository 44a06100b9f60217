package dev.evidencestore.integrity;

import dev.evidencestore.domain.Clock;
import dev.evidencestore.domain.Digest;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Instant;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scrub that read a blob's bytes before they changed finishes after a download found them damaged: its intact
 * result must not restore the damaged evidence. Only a check that began after the damage was found clears it.
 */
@QuarkusTest
class StaleCheckTest {

    @Inject
    BlobIntegrity integrity;

    private static long damaged(Digest digest) throws SQLException {
        return Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged", digest.toString());
    }

    @Test
    void intactBytesReadBeforeTheDamageWasFoundDoNotRestoreIt() throws SQLException {
        Digest digest = Digest.parse(Fixtures.upload(("stale check " + UUID.randomUUID())
                .getBytes(StandardCharsets.UTF_8)));
        Digest other = Digest.parse("sha256:" + "e".repeat(64));
        Instant scrubBegan = Clock.now();

        assertTrue(integrity.record(digest, other, "a download", Clock.now()));
        assertEquals(1, damaged(digest));

        assertTrue(integrity.record(digest, digest, "the scrub", scrubBegan), "the stale check counts as damaged");
        assertEquals(1, damaged(digest), "the damage stands");

        Instant found = Sql.instant("SELECT checked_at FROM blob_integrity WHERE digest = ?", digest.toString());
        assertFalse(integrity.record(digest, digest, "the scrub", found.plusNanos(1_000)));
        assertEquals(0, damaged(digest), "a check begun after the damage was found restores it");
    }
}
