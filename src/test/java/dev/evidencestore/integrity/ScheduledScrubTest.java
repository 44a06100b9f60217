package dev.evidencestore.integrity;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Profiles;
import dev.evidencestore.support.Sql;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static dev.evidencestore.support.Api.api;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scrub runs on its own schedule, finds damage without being asked, and never starts twice in half an interval. */
@QuarkusTest
@TestProfile(Profiles.Scheduled.class)
class ScheduledScrubTest {

    @Inject
    Scheduler scheduler;

    @Inject
    BlobScrub scrub;

    @Test
    void findsDamageOnItsOwnAndKeepsHalfAnIntervalBetweenPasses() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(1000);
        String digest = api().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then().statusCode(201)
                .extract().path("digest");
        Instant damagedAt = Instant.now();
        Sql.tamper("UPDATE blob_chunk SET data = set_byte(data, 5, (get_byte(data, 5) + 1) % 256) "
                + "WHERE content_id = (SELECT content_id FROM blob_content WHERE digest = ?)", digest);
        Instant pausedAt;
        try {
            long deadline = System.currentTimeMillis() + 60_000;
            while ((!damaged(digest) || starts(damagedAt, Instant.now()).size() < 3)
                    && System.currentTimeMillis() < deadline) {
                Thread.sleep(200);
            }
            assertTrue(damaged(digest), "no scheduled pass found the damage within a minute");
        } finally {
            scheduler.pause(BlobScrub.JOB);
            pausedAt = Instant.now();
            // waits for a pass that was still running when the schedule paused
            scrub.pass();
        }
        List<Instant> starts = starts(damagedAt, pausedAt);
        assertTrue(starts.size() >= 3, "the schedule started only " + starts);
        for (int i = 1; i < starts.size(); i++) {
            Duration gap = Duration.between(starts.get(i - 1), starts.get(i));
            assertTrue(gap.compareTo(Duration.ofSeconds(1)) >= 0, "passes started " + gap + " apart: " + starts);
        }
        assertEquals(0, Sql.count("SELECT count(*) FROM scrub_pass WHERE finished_at IS NULL"));
    }

    private static boolean damaged(String digest) throws SQLException {
        return Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged", digest) == 1;
    }

    /** When the passes that started between {@code from} and {@code to} started, oldest first. */
    private static List<Instant> starts(Instant from, Instant to) throws SQLException {
        List<Instant> starts = new ArrayList<>();
        try (Connection connection = Sql.connect(); PreparedStatement query = connection.prepareStatement(
                "SELECT started_at FROM scrub_pass WHERE started_at > ? AND started_at < ? ORDER BY started_at")) {
            query.setObject(1, OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
            query.setObject(2, OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    starts.add(rs.getObject(1, OffsetDateTime.class).toInstant());
                }
            }
        }
        return starts;
    }
}
