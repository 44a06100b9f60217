package dev.evidencestore.api;

import dev.evidencestore.integrity.BlobScrub;
import dev.evidencestore.integrity.ScrubResult;
import dev.evidencestore.support.Damage;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Probes;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.evidencestore.support.Api.anonymous;
import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bit rot in the postgres backend is never silent: the scrub finds it and says so in the integrity report, the
 * metrics and the readiness details; damaged bytes are refused, or cut short while they stream; restored bytes
 * are served again.
 */
@QuarkusTest
class IntegrityApiTest {

    static final String CONTENT = "/api/v1/artifacts/{id}/content";
    static final String INTEGRITY = "/api/v1/integrity";
    static final String DAMAGED_METRIC = "evidence_blobs_damaged";

    @Inject
    BlobScrub scrub;

    /** A reader whose token holds only this workspace. */
    static String readerOf(String workspace) {
        return Tokens.of("rita", Set.of("reader"), List.of(workspace));
    }

    @Test
    void theScrubFindsAFlippedByteAndEverythingSaysSo() throws SQLException {
        String ws = "scrub-pg";
        byte[] bytes = Evidence.uniqueBytes(3000);
        Fixtures.Cited cited = Fixtures.cited(ws, "grafana-checkout", bytes);
        byte[] soundBytes = Evidence.uniqueBytes(2000);
        String sound = Fixtures.bind(ws, cited.key(), "kubernetes-workers", Fixtures.upload(soundBytes));
        scrub.pass();
        long before = Damage.damagedBlobs();
        assertEquals(before, Probes.metric(DAMAGED_METRIC));

        Damage.flipChunkByte(cited.digest(), 99);
        ScrubResult result = scrub.pass();

        assertTrue(result.blobs() >= 2 && result.damaged() >= 1, result.toString());
        assertEquals(before + 1, Damage.damagedBlobs());
        assertEquals(before + 1, Probes.metric(DAMAGED_METRIC));
        assertTrue(Probes.metric("evidence_scrub_bytes_total") >= result.bytes());
        assertEquals(Damage.lastScrub().toEpochMilli() / 1000.0, Probes.metric("evidence_scrub_last_finished_seconds"));
        Map<String, Object> readiness = Probes.readiness("blob-integrity");
        assertEquals("UP", readiness.get("status"));
        assertEquals(Map.of("damagedBlobs", (int) (before + 1), "lastScrub", Damage.lastScrub().toString()),
                Map.of("damagedBlobs", ((Map<?, ?>) readiness.get("data")).get("damagedBlobs"),
                        "lastScrub", ((Map<?, ?>) readiness.get("data")).get("lastScrub")));

        JsonPath report = as(readerOf(ws)).get(INTEGRITY).then().statusCode(200).extract().jsonPath();
        Damage.assertListedAlone(report, cited, Evidence.digestOf(Damage.flipped(bytes, 99)));
        Damage.assertTotals(report);

        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged")
                .body("digest", equalTo(cited.digest()))
                .body("detail", containsString(cited.digest()));
        problem(api().get("/api/v1/blobs/{digest}", cited.digest()).then(), 500, "evidence-damaged");
        problem(api().header("Range", "bytes=0-9").get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged");
        api().head(CONTENT, cited.artifactId()).then().statusCode(500);
        assertArrayEquals(soundBytes, api().get(CONTENT, sound).then().statusCode(200).extract().asByteArray());
    }

    @Test
    void aDownloadCutsDamageTheScrubHasNotSeenShortAndRecordsIt() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(600_000);
        Fixtures.Cited cited = Fixtures.cited("scrub-pg-download", "github-deployment", bytes);
        Damage.flipChunkByte(cited.digest(), 99);
        String path = "/api/v1/artifacts/" + cited.artifactId() + "/content";

        // a range cannot be checked against the digest of the whole, so it is served while nobody knows better
        api().header("Range", "bytes=0-9").get(CONTENT, cited.artifactId()).then().statusCode(206);
        Damage.assertCutShort(path);

        assertEquals(1, Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged "
                + "AND computed_digest = ?", cited.digest(), Evidence.digestOf(Damage.flipped(bytes, 99))));
        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged");
    }

    @Test
    void aSmallDamagedBlobIsRefusedBeforeAnyByteIsSent() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(3000);
        Fixtures.Cited cited = Fixtures.cited("scrub-pg-small", "grafana-checkout", bytes);
        Damage.flipChunkByte(cited.digest(), 0);

        HttpResponse<byte[]> first = Damage.download("/api/v1/artifacts/" + cited.artifactId() + "/content");

        assertEquals(500, first.statusCode());
        assertTrue(new String(first.body()).contains("evidence-damaged"), new String(first.body()));
        assertEquals(1, Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged",
                cited.digest()));
    }

    @Test
    void restoredBytesAreServedAgainAfterTheNextPass() throws SQLException {
        String ws = "scrub-pg-restore";
        byte[] bytes = Evidence.uniqueBytes(5000);
        Fixtures.Cited cited = Fixtures.cited(ws, "grafana-checkout", bytes);
        Damage.flipChunkByte(cited.digest(), 4999);
        scrub.pass();
        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged");
        long damaged = Damage.damagedBlobs();

        Damage.restoreChunkByte(cited.digest(), 4999);
        scrub.pass();

        assertArrayEquals(bytes, api().get(CONTENT, cited.artifactId()).then().statusCode(200).extract().asByteArray());
        assertEquals(damaged - 1, Damage.damagedBlobs());
        assertEquals(damaged - 1, Probes.metric(DAMAGED_METRIC));
        as(readerOf(ws)).get(INTEGRITY).then().statusCode(200).body("items", equalTo(List.of()));
        assertEquals(1, Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND NOT damaged "
                + "AND computed_digest = digest AND damaged_since IS NULL", cited.digest()));
    }

    @Test
    void aFailedVerificationMarksTheBytesDamagedWithoutAScrub() throws SQLException {
        String ws = "scrub-pg-verify";
        byte[] bytes = Evidence.uniqueBytes(4000);
        Fixtures.Cited cited = Fixtures.cited(ws, "grafana-checkout", bytes);
        Damage.flipChunkByte(cited.digest(), 7);

        api().contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", cited.artifactId())
                .then().statusCode(201).body("verified", equalTo(false));

        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged");
        problem(api().get("/api/v1/workspaces/{ws}/incidents/{key}/evidence-bundle", ws, cited.key()).then(), 500,
                "evidence-damaged").body("digest", equalTo(cited.digest()));
        JsonPath report = as(readerOf(ws)).get(INTEGRITY).then().statusCode(200).extract().jsonPath();
        Damage.assertListedAlone(report, cited, Evidence.digestOf(Damage.flipped(bytes, 7)));
    }

    @Test
    void listsOnlyWhatTheTokenMaySeeAndNeedsOne() throws SQLException {
        Fixtures.Cited hidden = Fixtures.cited("scrub-pg-hidden", "grafana-checkout", Evidence.uniqueBytes(300));
        Fixtures.Cited shown = Fixtures.cited("public-demo", "grafana-checkout", Evidence.uniqueBytes(300));
        Damage.flipChunkByte(hidden.digest(), 1);
        Damage.flipChunkByte(shown.digest(), 1);
        try {
            scrub.pass();

            // a token held to another workspace still sees the publicly readable one
            as(readerOf("scrub-pg-elsewhere")).get(INTEGRITY).then().statusCode(200)
                    .body("items.artifactId", hasItem(shown.artifactId()))
                    .body("items.artifactId", not(hasItem(hidden.artifactId())))
                    .body("damagedBlobs", equalTo((int) Damage.damagedBlobs()));
            as(readerOf("scrub-pg-hidden")).get(INTEGRITY).then().statusCode(200)
                    .body("items.artifactId", hasItem(hidden.artifactId()));
        } finally {
            // everyone sees the public workspace: leave no damage there for other tests' reports
            Damage.restoreChunkByte(shown.digest(), 1);
        }
        problem(anonymous().get(INTEGRITY).then(), 401, "unauthorized");
        problem(invalidAs(Tokens.of("eve", Set.of("auditor"), null)).get(INTEGRITY).then(), 403, "forbidden");
    }
}
