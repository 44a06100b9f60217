package dev.evidencestore.support;

import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Bit rot made by hand, and what the service must then say about it. */
public final class Damage {

    private Damage() {
    }

    /** The bytes with one byte changed, as a flipped bit on a disk would change them. */
    public static byte[] flipped(byte[] bytes, int at) {
        byte[] damaged = bytes.clone();
        damaged[at] = (byte) (damaged[at] + 1);
        return damaged;
    }

    /** Changes one byte of a blob in the postgres backend's chunk rows, behind the service's back. */
    public static void flipChunkByte(String digest, int at) throws SQLException {
        int changed = Sql.tamper("UPDATE blob_chunk SET data = set_byte(data, ?, (get_byte(data, ?) + 1) % 256) "
                + "WHERE content_id = (SELECT content_id FROM blob_content WHERE digest = ?) AND seq = 0",
                at, at, digest);
        assertEquals(1, changed);
    }

    /** Undoes {@link #flipChunkByte}, as restoring the chunk from a backup would. */
    public static void restoreChunkByte(String digest, int at) throws SQLException {
        Sql.tamper("UPDATE blob_chunk SET data = set_byte(data, ?, (get_byte(data, ?) + 255) % 256) "
                + "WHERE content_id = (SELECT content_id FROM blob_content WHERE digest = ?) AND seq = 0",
                at, at, digest);
    }

    /** Blobs the database records as damaged. */
    public static long damagedBlobs() throws SQLException {
        return Sql.count("SELECT count(*) FROM blob_integrity WHERE damaged");
    }

    public static Instant lastScrub() throws SQLException {
        return Sql.instant("SELECT max(finished_at) FROM scrub_pass");
    }

    /** The integrity report's totals are the store's, whatever the caller may see. */
    public static void assertTotals(JsonPath report) throws SQLException {
        assertEquals(Sql.count("SELECT count(*) FROM blob"), report.getLong("blobs"));
        assertEquals(Sql.count("SELECT count(*) FROM blob_integrity"), report.getLong("blobsChecked"));
        assertEquals(damagedBlobs(), report.getLong("damagedBlobs"));
        assertEquals(lastScrub(), Instant.parse(report.getString("lastScrub")));
    }

    /** The one damaged artifact listed: exactly it, the two digests, when, and the finding and entry citing it. */
    public static void assertListedAlone(JsonPath report, Fixtures.Cited cited, String computedDigest) throws SQLException {
        List<Map<String, Object>> items = report.getList("items");
        assertEquals(1, items.size(), items.toString());
        Map<String, Object> item = new LinkedHashMap<>(items.get(0));
        assertEquals(Sql.instant("SELECT damaged_since FROM blob_integrity WHERE digest = ?", cited.digest()),
                Instant.parse((String) item.remove("damagedSince")));
        assertEquals(Sql.instant("SELECT checked_at FROM blob_integrity WHERE digest = ?", cited.digest()),
                Instant.parse((String) item.remove("lastChecked")));
        Map<String, Object> expected = new HashMap<>();
        expected.put("artifactId", cited.artifactId());
        expected.put("recordedDigest", cited.digest());
        expected.put("computedDigest", computedDigest);
        expected.put("citations", List.of(
                referrer("finding", cited.findingId(), "proposed", cited.digest()),
                referrer("timeline-entry", cited.timelineId(), null, cited.digest())));
        assertEquals(expected, item);
    }

    private static Map<String, Object> referrer(String kind, String id, String status, String digest) {
        Map<String, Object> referrer = new HashMap<>();
        referrer.put("kind", kind);
        referrer.put("id", id);
        referrer.put("status", status);
        referrer.put("digest", digest);
        referrer.put("via", null);
        return referrer;
    }

    /**
     * A whole download with the JDK's client, which insists on every byte {@code Content-Length} promised; alice
     * holds every role and no workspace limit. A transfer left hanging would time out: that is no answer either.
     */
    public static HttpResponse<byte[]> download(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                .header("Authorization", "Bearer " + Tokens.alice()).timeout(Duration.ofSeconds(30)).build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    /** A whole download that must end in an error before its last byte, not by waiting for bytes that never come. */
    public static IOException assertCutShort(String path) {
        IOException cutShort = assertThrows(IOException.class, () -> download(path),
                "a complete answer carried bytes that do not match the digest");
        assertFalse(cutShort instanceof HttpTimeoutException, "the transfer hung instead of ending: " + cutShort);
        return cutShort;
    }
}
