package dev.evidencestore.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.evidencestore.support.Api;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Fixtures;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.TarBody;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.invalid;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
class ArtifactBatchApiTest {

    private static final String BATCHES = "/api/v1/workspaces/{ws}/incidents/{key}/artifact-batches";
    private static final String TAR = "application/x-tar";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void bindsEveryItemWhateverTheOrderOfItsEntriesAndARetryChangesNothing() throws Exception {
        String key = Fixtures.newIncident("demo");
        List<byte[]> blobs = List.of(Evidence.uniqueBytes(10_240), Evidence.uniqueBytes(1), Evidence.uniqueBytes(300_000));
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < blobs.size(); i++) {
            items.add(item("panel-" + i + ".json", "panel-" + i, Evidence.digestOf(blobs.get(i))));
        }
        TarBody tar = manifest(items);
        for (int i = blobs.size() - 1; i >= 0; i--) {
            tar.add("panel-" + i + ".json", blobs.get(i));
        }
        byte[] body = tar.bytes();

        ValidatableResponse first = batch(api(), key, body).statusCode(200).body("results", hasSize(3));
        for (int i = 0; i < blobs.size(); i++) {
            String id = "artifact:demo:v1:" + key + ":panel-" + i;
            first.body("results[" + i + "].path", equalTo("panel-" + i + ".json"))
                    .body("results[" + i + "].status", equalTo(201))
                    .body("results[" + i + "].id", equalTo(id))
                    .body("results[" + i + "].digest", equalTo(Evidence.digestOf(blobs.get(i))))
                    .body("results[" + i + "].problem", nullValue());
            assertArrayEquals(blobs.get(i), api().get("/api/v1/artifacts/{id}/content", id).then().statusCode(200)
                    .extract().asByteArray());
            api().get("/api/v1/artifacts/{id}", id).then().statusCode(200).body("mediaType", equalTo("application/json"))
                    .body("capture.collector", equalTo("evidence-cli 0.1.0"));
        }
        // audited per artifact, as one bind alone would be
        assertEquals(3, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 201 AND target LIKE ?"),
                "/api/v1/workspaces/demo/incidents/" + key + "/artifact-batches", "%/api/v1/artifacts/artifact:demo:v1:"
                        + key + ":panel-%"));

        batch(api(), key, body).statusCode(200).body("results.status", equalTo(List.of(200, 200, 200)))
                .body("results.id", equalTo(first.extract().path("results.id")));
        assertEquals(3, Sql.count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                + "WHERE i.incident_key = ?", key));
    }

    @Test
    void eachItemIsRefusedAloneWithTheProblemItWouldHaveHadAlone() throws Exception {
        String key = Fixtures.newIncident("demo");
        byte[] taken = Evidence.uniqueBytes(100);
        Fixtures.bind("demo", key, "taken", Fixtures.upload(taken));
        byte[] good = Evidence.uniqueBytes(200);
        byte[] other = Evidence.uniqueBytes(300);
        byte[] liar = Evidence.uniqueBytes(400);
        Map<String, Object> badName = item("bad.json", "Not A Name", Evidence.digestOf(good));
        TarBody tar = manifest(List.of(
                item("good.json", "good", Evidence.digestOf(good)),
                item("taken.json", "taken", Evidence.digestOf(other)),
                item("liar.json", "liar", Evidence.digestOf(Evidence.uniqueBytes(400))),
                badName,
                item("missing.json", "missing", Evidence.digestOf(good))))
                .add("liar.json", liar).add("taken.json", other).add("stray.json", good).add("bad.json", good)
                .add("good.json", good).add("good.json", good);

        ValidatableResponse answer = batch(api(), key, tar.bytes()).statusCode(200)
                .body("results.path", equalTo(List.of("good.json", "taken.json", "liar.json", "bad.json",
                        "missing.json", "stray.json", "good.json")))
                .body("results.status", equalTo(List.of(201, 409, 400, 400, 400, 400, 400)))
                .body("results[1].problem.type", equalTo("https://evidence-store.dev/problems/artifact-name-taken"))
                .body("results[1].problem.boundDigest", equalTo(Evidence.digestOf(taken)))
                .body("results[2].problem.type", equalTo("https://evidence-store.dev/problems/digest-mismatch"))
                .body("results[2].problem.computedDigest", equalTo(Evidence.digestOf(liar)))
                .body("results[3].problem.type", equalTo("https://evidence-store.dev/problems/invalid-request"))
                .body("results[3].problem.errors[0].field", equalTo("name"))
                .body("results[4].problem.detail", equalTo("batch.json names missing.json, but the archive has no "
                        + "entry of that name"))
                .body("results[5].problem.type", equalTo("https://evidence-store.dev/problems/invalid-request"));
        answer.body("results[0].id", equalTo("artifact:demo:v1:" + key + ":good"));
        // the lying bytes were not stored, and the taken name still names its first bytes
        api().head("/api/v1/blobs/{digest}", Evidence.digestOf(liar)).then().statusCode(404);
        api().get("/api/v1/artifacts/{id}", "artifact:demo:v1:" + key + ":taken").then().statusCode(200)
                .body("digest", equalTo(Evidence.digestOf(taken)));
        assertEquals(2, Sql.count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                + "WHERE i.incident_key = ?", key));
        assertEquals(1, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 409"), batchPath(key)));
        assertEquals(1, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 400"), batchPath(key)));
    }

    @Test
    void anIdempotencyKeyAnswersARetryOfTheWholeBatchAsTheFirstRecognisedByItsContentDigest() throws Exception {
        String key = Fixtures.newIncident("demo");
        byte[] bytes = Evidence.uniqueBytes(5000);
        byte[] body = manifest(List.of(item("a.json", "a", Evidence.digestOf(bytes)))).add("a.json", bytes).bytes();
        String idempotencyKey = "batch-" + Evidence.uniqueKey();
        problem(batch(invalid().header("Idempotency-Key", idempotencyKey), key, body), 400, "invalid-request")
                .body("errors[0].field", equalTo("Content-Digest"));
        String first = batch(api().header("Idempotency-Key", idempotencyKey).header("Content-Digest",
                contentDigest(body)), key, body).statusCode(200).body("results[0].status", equalTo(201))
                .extract().asString();
        String replay = batch(api().header("Idempotency-Key", idempotencyKey).header("Content-Digest",
                contentDigest(body)), key, body).statusCode(200).header("Idempotent-Replayed", "?1")
                .extract().asString();
        assertEquals(first, replay);

        byte[] other = manifest(List.of(item("b.json", "b", Evidence.digestOf(bytes)))).add("b.json", bytes).bytes();
        problem(batch(invalid().header("Content-Digest", contentDigest(body)), key, other), 400, "digest-mismatch")
                .body("computedDigest", equalTo(Evidence.digestOf(other)));
    }

    @Test
    void wholeRequestsAreRefusedBeforeAnyBlobIsRead() throws Exception {
        String key = Fixtures.newIncident("demo");
        byte[] bytes = Evidence.uniqueBytes(100);
        String digest = Evidence.digestOf(bytes);
        problem(batch(invalid(), key, new TarBody().add("a.json", bytes).bytes()), 400, "invalid-request")
                .body("detail", equalTo("the first entry of a batch must be batch.json, an array of the items to bind"));
        problem(batch(invalid(), key, Evidence.utf8("not a tar archive at all, just some words")), 400,
                "invalid-request");
        problem(batch(invalid(), key, new TarBody().add("batch.json", Evidence.utf8("{\"path\":1}")).bytes()), 400,
                "invalid-request");
        problem(batch(invalid(), key, manifest(List.of(item("a.json", "a", digest), item("a.json", "b", digest)))
                .bytes()), 400, "invalid-request").body("errors[0].field", equalTo("batch.json[1].path"));
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i <= 1000; i++) {
            tooMany.add(item("p" + i, "n" + i, digest));
        }
        problem(batch(invalid(), key, manifest(tooMany).add("p0", bytes).bytes()), 413, "body-too-large")
                .body("maxItems", equalTo(1000));
        problem(batch(invalid(), "INC-404404", manifest(List.of(item("a.json", "a", digest))).add("a.json", bytes)
                .bytes()), 404, "not-found");
        problem(invalid().contentType("text/plain").body(bytes).post(BATCHES, "demo", key).then(), 415,
                "unsupported-media-type");
        problem(batch(invalidAs(null), key, bytes), 401, "unauthorized");
        problem(batch(invalidAs(Tokens.of("rita", "reader")), key, bytes), 403, "forbidden");
        api().head("/api/v1/blobs/{digest}", digest).then().statusCode(404);
        assertEquals(0, Sql.count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                + "WHERE i.incident_key = ?", key));
    }

    /**
     * Small items are stored several at a time (16 on this suite's postgres backend) while larger ones stream
     * in between: every item still gets its own result, its own audit entry and its bytes, and one refused item
     * among them is refused alone.
     */
    @Test
    void manySmallItemsInFlightEachGetTheirOwnResultEntryAndBytes() throws Exception {
        String key = Fixtures.newIncident("demo");
        List<byte[]> blobs = new ArrayList<>();
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            blobs.add(Evidence.uniqueBytes(i == 17 ? 200_000 : 500 + i));
            items.add(item("doc-" + i, "doc-" + i, Evidence.digestOf(blobs.get(i))));
        }
        items.get(23).put("digest", Evidence.digestOf(Evidence.uniqueBytes(10)));
        TarBody tar = manifest(items);
        for (int i = 0; i < blobs.size(); i++) {
            tar.add("doc-" + i, blobs.get(i));
        }

        ValidatableResponse answer = batch(api(), key, tar.bytes()).statusCode(200).body("results", hasSize(40));

        for (int i = 0; i < blobs.size(); i++) {
            String id = "artifact:demo:v1:" + key + ":doc-" + i;
            if (i == 23) {
                answer.body("results[23].status", equalTo(400)).body("results[23].problem.type",
                        equalTo(Api.PROBLEMS + "digest-mismatch"));
                api().get("/api/v1/artifacts/{id}", id).then().statusCode(404);
                continue;
            }
            answer.body("results[" + i + "].path", equalTo("doc-" + i)).body("results[" + i + "].status", equalTo(201))
                    .body("results[" + i + "].id", equalTo(id));
            assertArrayEquals(blobs.get(i), api().get("/api/v1/artifacts/{id}/content", id).then().statusCode(200)
                    .extract().asByteArray());
        }
        assertEquals(39, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 201"), batchPath(key)));
        assertEquals(1, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 400"), batchPath(key)));
    }

    /**
     * Items are bound in groups (four in the test profile), but each as it would be alone: a name an earlier item of
     * the same batch, even of the same group, took is found bound to the same bytes (200) or refused (409).
     */
    @Test
    void aNameTakenEarlierInTheSameBatchIsFoundBoundOrRefusedAsAlone() throws Exception {
        String key = Fixtures.newIncident("demo");
        byte[] first = Evidence.uniqueBytes(100);
        byte[] second = Evidence.uniqueBytes(200);
        byte[] body = manifest(List.of(item("a", "x", Evidence.digestOf(first)),
                item("b", "x", Evidence.digestOf(first)), item("c", "x", Evidence.digestOf(second)),
                item("d", "y", Evidence.digestOf(second)), item("e", "x", Evidence.digestOf(second))))
                .add("a", first).add("b", first).add("c", second).add("d", second).add("e", second).bytes();

        batch(api(), key, body).statusCode(200)
                .body("results.status", equalTo(List.of(201, 200, 409, 201, 409)))
                .body("results[1].id", equalTo("artifact:demo:v1:" + key + ":x"))
                .body("results[1].digest", equalTo(Evidence.digestOf(first)))
                .body("results[2].problem.type", equalTo(Api.PROBLEMS + "artifact-name-taken"))
                .body("results[2].problem.boundDigest", equalTo(Evidence.digestOf(first)))
                .body("results[4].problem.artifactId", equalTo("artifact:demo:v1:" + key + ":x"));

        api().get("/api/v1/artifacts/{id}", "artifact:demo:v1:" + key + ":x").then().statusCode(200)
                .body("digest", equalTo(Evidence.digestOf(first)));
        assertEquals(1, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 200"), batchPath(key)));
        assertEquals(2, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 201"), batchPath(key)));
        assertEquals(2, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 409"), batchPath(key)));
    }

    /**
     * Two batches racing to bind the same names to other bytes, each group of four (the test profile's group) in
     * the opposite order of the other's, each group in one transaction: each name is bound once, 201 in one answer
     * and 409 in the other, and both batches end (each group inserts its names in name order, so two never wait
     * for each other in a cycle).
     */
    @Test
    void concurrentBatchesBindingTheSameNamesInOppositeOrdersBothSucceed() throws Exception {
        String key = Fixtures.newIncident("demo");
        int count = 24;
        List<byte[]> blobs = new ArrayList<>();
        List<byte[]> others = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            blobs.add(Evidence.uniqueBytes(300 + i));
            others.add(Evidence.uniqueBytes(300 + i));
        }
        List<Integer> forward = new ArrayList<>();
        List<Integer> backward = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            forward.add(i);
            backward.add(i / 4 * 4 + 3 - i % 4);
        }
        byte[] oneBody = batchOf(blobs, forward);
        byte[] otherBody = batchOf(others, backward);

        for (int round = 0; round < 3; round++) {
            String incident = round == 0 ? key : Fixtures.newIncident("demo");
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                Future<List<Integer>> one = pool.submit(() -> statuses(incident, oneBody));
                Future<List<Integer>> other = pool.submit(() -> statuses(incident, otherBody));
                List<Integer> oneStatuses = one.get();
                List<Integer> otherStatuses = other.get();
                for (int i = 0; i < count; i++) {
                    int at = backward.indexOf(i);
                    assertEquals(List.of(201, 409), Stream.of(oneStatuses.get(i), otherStatuses.get(at)).sorted()
                            .toList(), "doc-" + i);
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(count, Sql.count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                    + "WHERE i.incident_key = ?", incident));
        }
    }

    private static byte[] batchOf(List<byte[]> blobs, List<Integer> order) throws Exception {
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i : order) {
            items.add(item("doc-" + i, "doc-" + i, Evidence.digestOf(blobs.get(i))));
        }
        TarBody tar = manifest(items);
        for (int i : order) {
            tar.add("doc-" + i, blobs.get(i));
        }
        return tar.bytes();
    }

    private static List<Integer> statuses(String key, byte[] body) {
        return batch(api(), key, body).statusCode(200).extract().path("results.status");
    }

    /** A body cut off after some small items answers 400 only once the items before the cut are bound. */
    @Test
    void aBodyCutAfterSmallItemsLeavesTheItemsBeforeTheCutBound() throws Exception {
        String key = Fixtures.newIncident("demo");
        List<byte[]> blobs = new ArrayList<>();
        List<Map<String, Object>> items = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            blobs.add(Evidence.uniqueBytes(700 + i));
            items.add(item("doc-" + i, "doc-" + i, Evidence.digestOf(blobs.get(i))));
        }
        TarBody tar = manifest(items);
        for (int i = 0; i < blobs.size(); i++) {
            tar.add("doc-" + i, blobs.get(i));
        }
        byte[] whole = tar.bytes();
        // batch.json and the first 12 items whole (512-byte header, content padded to 512), then the 13th's header
        // and 100 of its bytes
        int cut = tarLength(whole, 13) + 512 + 100;
        byte[] body = Arrays.copyOf(whole, cut);

        problem(batch(invalid(), key, body), 400, "invalid-request");

        assertEquals(12, Sql.count("SELECT count(*) FROM artifact a JOIN incident i ON i.id = a.incident_id "
                + "WHERE i.incident_key = ?", key));
        assertEquals(12, Sql.count(Sql.recordedAuditEntries("path = ? AND status = 201"), batchPath(key)));
    }

    /** Where entry {@code n} (batch.json is entry 0) ends in a tar of plain ustar entries. */
    private static int tarLength(byte[] tar, int entries) {
        int at = 0;
        for (int i = 0; i < entries; i++) {
            long size = Long.parseLong(new String(tar, at + 124, 11, StandardCharsets.US_ASCII).trim(), 8);
            at += 512 + (int) ((size + 511) / 512 * 512);
        }
        return at;
    }

    @Test
    void entriesBeyondTheBatchByteBudgetAreRefusedTheItemsBeforeThemStayBound() throws Exception {
        String key = Fixtures.newIncident("demo");
        // the test profile's evidence.batch.max-bytes is 4M
        byte[] first = Evidence.uniqueBytes(3 * 1024 * 1024);
        byte[] second = Evidence.uniqueBytes(2 * 1024 * 1024);
        byte[] body = manifest(List.of(item("first", "first", Evidence.digestOf(first)),
                item("second", "second", Evidence.digestOf(second)))).add("first", first).add("second", second)
                .bytes();
        problem(batch(invalid(), key, body), 413, "body-too-large").body("maxSize", equalTo(4 * 1024 * 1024));
        api().get("/api/v1/artifacts/{id}", "artifact:demo:v1:" + key + ":first").then().statusCode(200);
        api().head("/api/v1/blobs/{digest}", Evidence.digestOf(second)).then().statusCode(404);
    }

    private static ValidatableResponse batch(RequestSpecification request, String key, byte[] body) {
        return request.contentType(TAR).body(body).post(BATCHES, "demo", key).then();
    }

    private static String contentDigest(byte[] body) {
        return "sha-256=:" + Base64.getEncoder().encodeToString(DigestUtils.sha256(body)) + ":";
    }

    private static String batchPath(String key) {
        return "/api/v1/workspaces/demo/incidents/" + key + "/artifact-batches";
    }

    private static TarBody manifest(List<Map<String, Object>> items) throws Exception {
        return new TarBody().add("batch.json", JSON.writeValueAsBytes(items));
    }

    private static Map<String, Object> item(String path, String name, String digest) {
        Map<String, Object> item = new HashMap<>(Fixtures.artifact(name, digest));
        item.put("path", path);
        item.put("capture", Map.of("collector", "evidence-cli 0.1.0"));
        return item;
    }
}
