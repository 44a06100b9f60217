package dev.evidencestore.api;

import dev.evidencestore.integrity.BlobScrub;
import dev.evidencestore.support.Damage;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Probes;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.api.IntegrityApiTest.CONTENT;
import static dev.evidencestore.api.IntegrityApiTest.DAMAGED_METRIC;
import static dev.evidencestore.api.IntegrityApiTest.INTEGRITY;
import static dev.evidencestore.api.IntegrityApiTest.readerOf;
import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Bit rot in the filesystem backend: a flipped byte in a blob's file, a file gone, and a file restored. */
@QuarkusTest
@TestProfile(FilesystemBackendTest.Filesystem.class)
class FilesystemIntegrityTest {

    private static final String HELD = "evidence_reads_held_total";

    @Inject
    BlobScrub scrub;

    private static Path fileOf(String digest) {
        String hex = digest.substring("sha256:".length());
        return TestDatabase.BLOB_DIR.resolve("sha256").resolve(hex.substring(0, 2)).resolve(hex);
    }

    /** Rewrites a blob's read-only file behind the service's back, as a failing disk or a careless operator might. */
    private static void overwrite(String digest, byte[] bytes) throws IOException {
        Path file = fileOf(digest);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        Files.write(file, bytes);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--r-----"));
    }

    @Test
    void theScrubFindsAFlippedByteAndEverythingSaysSo() throws Exception {
        String ws = "scrub-fs";
        byte[] bytes = Evidence.uniqueBytes(70_000);
        Fixtures.Cited cited = Fixtures.cited(ws, "grafana-checkout", bytes);
        byte[] soundBytes = Evidence.uniqueBytes(9000);
        String sound = Fixtures.bind(ws, cited.key(), "kubernetes-workers", Fixtures.upload(soundBytes));
        scrub.pass();
        long before = Damage.damagedBlobs();

        overwrite(cited.digest(), Damage.flipped(bytes, 1234));
        scrub.pass();

        assertEquals(before + 1, Damage.damagedBlobs());
        assertEquals(before + 1, Probes.metric(DAMAGED_METRIC));
        Map<?, ?> data = (Map<?, ?>) Probes.readiness("blob-integrity").get("data");
        assertEquals((int) (before + 1), data.get("damagedBlobs"));
        assertEquals(Damage.lastScrub().toString(), data.get("lastScrub"));
        JsonPath report = as(readerOf(ws)).get(INTEGRITY).then().statusCode(200).extract().jsonPath();
        Damage.assertListedAlone(report, cited, Evidence.digestOf(Damage.flipped(bytes, 1234)));
        Damage.assertTotals(report);
        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged")
                .body("digest", equalTo(cited.digest()));
        assertArrayEquals(soundBytes, api().get(CONTENT, sound).then().statusCode(200).extract().asByteArray());

        overwrite(cited.digest(), bytes);
        scrub.pass();

        assertArrayEquals(bytes, api().get(CONTENT, cited.artifactId()).then().statusCode(200).extract().asByteArray());
        assertEquals(before, Damage.damagedBlobs());
        as(readerOf(ws)).get(INTEGRITY).then().statusCode(200).body("items", equalTo(List.of()));
    }

    /** Bytes held in memory are refused as soon as the scrub finds the stored copy damaged. */
    @Test
    void damageFoundByTheScrubIsRefusedThoughTheBytesAreHeld() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(9000);
        Fixtures.Cited cited = Fixtures.cited("scrub-fs-held", "grafana-checkout", bytes);
        api().get(CONTENT, cited.artifactId()).then().statusCode(200);
        double held = Probes.metric(HELD);
        assertArrayEquals(bytes, api().get(CONTENT, cited.artifactId()).then().statusCode(200).extract().asByteArray());
        assertEquals(held + 1, Probes.metric(HELD), "the second read came from memory");

        overwrite(cited.digest(), Damage.flipped(bytes, 10));
        scrub.pass();

        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged")
                .body("digest", equalTo(cited.digest()));
        assertEquals(held + 1, Probes.metric(HELD));
        overwrite(cited.digest(), bytes);
        scrub.pass();
        assertArrayEquals(bytes, api().get(CONTENT, cited.artifactId()).then().statusCode(200).extract().asByteArray());
    }

    @Test
    void aMissingFileIsDamageWithNothingComputed() throws Exception {
        String ws = "scrub-fs-missing";
        byte[] bytes = Evidence.uniqueBytes(500);
        Fixtures.Cited cited = Fixtures.cited(ws, "intercom-readiness", bytes);
        Files.delete(fileOf(cited.digest()));

        scrub.pass();

        Damage.assertListedAlone(as(readerOf(ws)).get(INTEGRITY).then().statusCode(200).extract().jsonPath(), cited,
                null);
        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged");
    }

    @Test
    void aDownloadCutsDamageTheScrubHasNotSeenShortAndRecordsIt() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(700_000);
        Fixtures.Cited cited = Fixtures.cited("scrub-fs-download", "github-deployment", bytes);
        overwrite(cited.digest(), Damage.flipped(bytes, 650_000));

        Damage.assertCutShort("/api/v1/artifacts/" + cited.artifactId() + "/content");

        assertEquals(1, Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged "
                + "AND computed_digest = ?", cited.digest(), Evidence.digestOf(Damage.flipped(bytes, 650_000))));
        problem(api().get(CONTENT, cited.artifactId()).then(), 500, "evidence-damaged");
    }

    /**
     * A download of many blocks: the bytes arrive whole and in order, and damage in the last block ends the transfer
     * before the bytes that show it. (Read ahead on a second thread, the last block can go out before the failure;
     * until the connection was cut at once, the failure's problem+json then sometimes completed the Content-Length.)
     */
    @Test
    void aLargeDownloadServesTheBytesAndCutsDamageInItsLastBlockShort() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(3 * 1024 * 1024 + 17);
        Fixtures.Cited cited = Fixtures.cited("scrub-fs-large", "github-deployment", bytes);
        byte[] served = api().get(CONTENT, cited.artifactId()).then().statusCode(200)
                .header("Repr-Digest", Evidence.digestField(bytes)).extract().asByteArray();
        assertArrayEquals(bytes, served);

        byte[] damaged = Damage.flipped(bytes, bytes.length - 100);
        overwrite(cited.digest(), damaged);
        Damage.assertCutShort("/api/v1/artifacts/" + cited.artifactId() + "/content");

        assertEquals(1, Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged "
                + "AND computed_digest = ?", cited.digest(), Evidence.digestOf(damaged)));
    }

    /**
     * A bundle is chunked: damage found while it streams must leave it without its last chunk. (Before the connection
     * was cut at once, Vert.x closed it only after what was queued had gone out, the last chunk included, and every
     * such bundle arrived as a complete 200 with a truncated zip.)
     */
    @Test
    void aBundleWhoseEvidenceTurnsOutDamagedWhileItStreamsEndsUnfinished() throws Exception {
        byte[] bytes = Evidence.uniqueBytes(3 * 1024 * 1024 + 17);
        Fixtures.Cited cited = Fixtures.cited("scrub-fs-bundle", "github-deployment", bytes);
        String bundle = "/api/v1/workspaces/" + cited.workspace() + "/incidents/" + cited.key() + "/evidence-bundle";
        byte[] damaged = Damage.flipped(bytes, bytes.length - 100);
        overwrite(cited.digest(), damaged);

        Damage.assertCutShort(bundle);

        assertEquals(1, Sql.count("SELECT count(*) FROM blob_integrity WHERE digest = ? AND damaged "
                + "AND computed_digest = ?", cited.digest(), Evidence.digestOf(damaged)));
        problem(api().get(bundle).then(), 500, "evidence-damaged").body("digest", equalTo(cited.digest()));
    }
}
