package dev.evidencestore.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.evidencestore.deployment.ServiceInstance;
import dev.evidencestore.deployment.ThrowawayKeys;
import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.RawHttp;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.TestDatabase;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.parameters.Parameter;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.AroundPropertyHook;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.lifecycle.PropagationMode;
import net.jqwik.api.lifecycle.PropertyAttributes;
import net.jqwik.api.lifecycle.PropertyExecutionResult;
import net.jqwik.api.lifecycle.PropertyExecutor;
import net.jqwik.api.lifecycle.PropertyLifecycleContext;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Case 6 of the fault suite: hostile input over every operation of openapi/openapi.yaml, sent byte for byte to
 * the packaged jar. jqwik generates the requests: each property takes a valid request of one operation (the
 * contract's example body, or one built from its schema; path parameters naming evidence that exists) and spoils
 * one thing — a path or query parameter, a header, one field of the body, or the body's framing. Whatever comes
 * back must not be a 5xx, every error must be an RFC 9457 problem document, and no refused request may change a
 * single stored row. The figures go to target/faults/hostile-input.txt.
 */
@AddLifecycleHook(value = HostileInputIT.TriesForThisRun.class, propagateTo = PropagationMode.ALL_DESCENDANTS)
class HostileInputIT {

    /**
     * Every ./mvnw verify runs a sixth of the tries each property declares (about 300 requests, well under a
     * minute); the fault suite (faults/run.sh 6, or -Dfaults.hostile=true, or FAULTS_HOSTILE=1) runs them all
     * (about 1,800).
     */
    public static class TriesForThisRun implements AroundPropertyHook {

        static final int EVERY_RUN_SHARE = 6;

        static boolean all() {
            return Boolean.getBoolean("faults.hostile") || "1".equals(System.getenv("FAULTS_HOSTILE"));
        }

        @Override
        public PropertyExecutionResult aroundProperty(PropertyLifecycleContext context, PropertyExecutor property) {
            PropertyAttributes attributes = context.attributes();
            if (!all()) {
                attributes.tries().ifPresent(tries -> attributes.setTries(Math.max(1, tries / EVERY_RUN_SHARE)));
            }
            return property.execute();
        }
    }

    private static final String DATABASE = "evidence_faults_hostile_"
            + System.getenv().getOrDefault("EVIDENCE_TEST_DB", "main");
    private static final int PORT = 18699;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Refused before any operation is chosen; body-too-large too when admission judged it by its Content-Length. */
    private static final Set<String> HTTP_LAYER_PROBLEMS = Set.of("malformed-request", "uri-too-long",
            "header-fields-too-large", "body-too-large");
    private static final String WS = "hostile";
    private static final String KEY = "HOST-1";
    /** The tables whose rows a refused request must leave alone (the audit log records refusals, by design). */
    private static final List<String> TABLES = List.of("incident", "blob", "blob_upload", "blob_content", "artifact",
            "verification", "finding", "finding_citation", "finding_review", "root_cause", "root_cause_finding",
            "root_cause_review", "timeline_entry", "timeline_citation", "action_item");
    /** Write-once tables: whatever was accepted, no row seeded before may ever change. */
    private static final List<String> WRITE_ONCE = List.of("blob", "blob_upload", "blob_content", "artifact",
            "verification", "finding_citation", "finding_review", "timeline_entry", "timeline_citation");

    private static ServiceInstance service;
    private static RawHttp http;
    private static String token;
    private static Connection database;
    private static List<Op> operations;
    private static final Map<String, String> VALID = new LinkedHashMap<>();
    private static Map<String, Set<String>> seededRows;
    private static String snapshot;
    private static long auditEntries;

    private static final AtomicInteger REQUESTS = new AtomicInteger();
    private static final Map<String, AtomicInteger> STATUSES = Collections.synchronizedMap(new java.util.TreeMap<>());
    private static final List<String> VIOLATIONS = Collections.synchronizedList(new ArrayList<>());
    private static final Map<String, AtomicInteger> VIOLATION_KINDS = Collections.synchronizedMap(new java.util.TreeMap<>());

    /** One operation of the contract and what makes a valid request of it. */
    record Op(String method, String path, List<Parameter> parameters, String mediaType, JsonNode example) {
        @Override
        public String toString() {
            return method + " " + path;
        }
    }

    // ---- lifecycle -----------------------------------------------------------------------------------------------

    @BeforeContainer
    static void startServiceAndSeedEvidence() throws Exception {
        TestDatabase.recreate(DATABASE);
        ThrowawayKeys keys = new ThrowawayKeys(Path.of("target/it-keys-hostile"));
        token = keys.token("hostile-fuzzer", "collector", "investigator", "reviewer", "reader");
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + TestDatabase.HOST + "/" + DATABASE);
        // two roles, as production should run: the service cannot undo the write-once triggers
        settings.putAll(TestDatabase.roles());
        settings.put("mp.jwt.verify.publickey.location", keys.jwtPublicKey.toAbsolutePath().toString());
        settings.put("EVIDENCE_JWT_ISSUER", ThrowawayKeys.ISSUER);
        settings.put("evidence.audit.signing-key-location", keys.auditSigningKey.toAbsolutePath().toString());
        settings.put("evidence.audit.origin", "evidence-store.test/hostile-input");
        settings.put("evidence.storage.backend", "filesystem");
        // hostile tokens make unauthenticated writes by the hundred, each checked for its own entry; the limit that
        // folds a flood of them into one aggregate entry has tests of its own (UnauthenticatedWriteLimitTest)
        settings.put("evidence.audit.unauthenticated-writes.rate", "1000000");
        settings.put("evidence.storage.filesystem.path", Path.of("target/it-blobs-hostile").toAbsolutePath().toString());
        // four eyes would refuse the fuzzer's reviews of its own findings before any input is looked at
        settings.put("evidence.review.four-eyes", "false");
        service = new ServiceInstance("hostile-input", PORT, settings).start();
        service.awaitReady(Duration.ofSeconds(180));
        http = new RawHttp(PORT);
        database = DriverManager.getConnection("jdbc:postgresql://" + TestDatabase.HOST + "/" + DATABASE,
                TestDatabase.USER, null);
        seed();
        operations = readContract();
        seededRows = rows(WRITE_ONCE);
        snapshot = snapshot();
        auditEntries = auditEntries();
    }

    @AfterContainer
    static void reportAndStop() throws Exception {
        if (seededRows == null) { // the start failed, and jqwik reports why
            stopService();
            return;
        }
        try {
            // whatever was accepted, the seeded evidence is as it was and still verifies
            Map<String, Set<String>> now = rows(WRITE_ONCE);
            for (String table : WRITE_ONCE) {
                Set<String> missing = new HashSet<>(seededRows.get(table));
                missing.removeAll(now.get(table));
                if (!missing.isEmpty()) {
                    violation("seeded-row-changed", table + " rows changed or gone: " + missing);
                }
            }
            RawHttp.Response verify = call("POST", "/api/v1/artifacts/" + VALID.get("artifactId") + "/verifications",
                    Map.of("Content-Type", bytes("application/json")), bytes("{}"));
            if (verify.status() != 201 || !JSON.readTree(verify.body()).path("verified").asBoolean()) {
                violation("seeded-evidence-unverifiable", verify.status() + " " + verify.text());
            }
            String summary = String.format("hostile: requests=%d statuses=%s violations=%d %s", REQUESTS.get(), STATUSES,
                    VIOLATIONS.size(), VIOLATION_KINDS);
            System.out.println(summary);
            Path report = Path.of("target/faults/hostile-input.txt");
            Files.createDirectories(report.getParent());
            Files.writeString(report, summary + "\n" + String.join("\n", VIOLATIONS) + "\n");
            if (!VIOLATIONS.isEmpty()) {
                throw new AssertionError(summary + "; first ones:\n"
                        + String.join("\n", VIOLATIONS.subList(0, Math.min(15, VIOLATIONS.size())))
                        + "\n(all in target/faults/hostile-input.txt)");
            }
        } finally {
            stopService();
        }
    }

    private static void stopService() throws Exception {
        if (database != null) {
            database.close();
        }
        if (service != null) {
            service.stop();
        }
    }

    // ---- properties ----------------------------------------------------------------------------------------------

    @Property(tries = 400, shrinking = ShrinkingMode.OFF)
    void hostilePathParameters(@ForAll("operations") Op op, @ForAll("hostileStrings") String value,
                               @ForAll("encodings") Encoding encoding, @ForAll("indexes") int which) {
        List<Parameter> path = op.parameters().stream().filter(p -> "path".equals(p.getIn())).toList();
        if (path.isEmpty()) {
            send(op, Map.of("__extra_path__", encoding.encode(value)), Map.of(), null, "path suffix " + describe(value));
            return;
        }
        Parameter spoiled = path.get(which % path.size());
        send(op, Map.of(spoiled.getName(), encoding.encode(value)), Map.of(), null,
                spoiled.getName() + "=" + describe(value) + " (" + encoding + ")");
    }

    @Property(tries = 250, shrinking = ShrinkingMode.OFF)
    void hostileQueryParameters(@ForAll("operations") Op op, @ForAll("hostileStrings") String value,
                                @ForAll("indexes") int which) {
        List<String> names = new ArrayList<>(op.parameters().stream().filter(p -> "query".equals(p.getIn()))
                .map(Parameter::getName).toList());
        names.add("unknownParameter");
        String name = names.get(which % names.size());
        send(op, Map.of("__query__", name + "=" + Encoding.PERCENT.encode(value)
                + (which % 3 == 0 ? "&" + name + "=" + Encoding.PERCENT.encode(value) : "")), Map.of(), null,
                "query " + name + "=" + describe(value) + (which % 3 == 0 ? " twice" : ""));
    }

    @Property(tries = 300, shrinking = ShrinkingMode.OFF)
    void hostileHeaders(@ForAll("operations") Op op, @ForAll("hostileStrings") String value,
                        @ForAll("headerNames") String header) {
        send(op, Map.of(), Map.of(header, Encoding.RAW_UTF8.bytes(value.replace("\r", " ").replace("\n", " "))), null,
                "header " + header + ": " + describe(value));
    }

    @Property(tries = 700, shrinking = ShrinkingMode.OFF)
    void hostileBodyFields(@ForAll("operationsWithJsonBodies") Op op, @ForAll("indexes") int field,
                           @ForAll("hostileJson") String token, @ForAll("fieldMutations") Mutation mutation) {
        List<List<Object>> paths = paths(op.example(), new ArrayList<>());
        List<Object> target = paths.get(field % paths.size());
        byte[] body = bytes(write(op.example(), target, mutation, token));
        send(op, Map.of(), Map.of(), body, mutation + " " + target + " -> " + describe(token));
    }

    @Property(tries = 150, shrinking = ShrinkingMode.OFF)
    void hostileWholeBodies(@ForAll("operationsWithBodies") Op op, @ForAll("hostileJson") String token,
                            @ForAll("indexes") int cut, @ForAll("bodyFramings") Framing framing) {
        byte[] valid = op.example() == null ? bytes("# a postmortem citing artifact:hostile:v1:HOST-1:seed")
                : bytes(op.example().toString());
        byte[] body = switch (framing) {
            case REPLACED -> bytes(token);
            case TRUNCATED -> java.util.Arrays.copyOf(valid, cut % Math.max(1, valid.length));
            case INVALID_UTF8 -> concat(java.util.Arrays.copyOf(valid, valid.length / 2),
                    new byte[] {(byte) 0xC0, (byte) 0xAF, (byte) 0xED, (byte) 0xA0, (byte) 0x80, (byte) 0xFF},
                    java.util.Arrays.copyOfRange(valid, valid.length / 2, valid.length));
            case BOM -> concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, valid);
            case NESTED -> bytes("[".repeat(5000 + cut) + "]".repeat(5000 + cut));
        };
        send(op, Map.of(), Map.of(), body, "body " + framing + (framing == Framing.REPLACED ? " " + describe(token) : ""));
    }

    /** Framing that no client library would send: Content-Length that lies, bodies cut off, duplicate keys. */
    @Example
    void framingAndDuplicateKeys() throws Exception {
        String incidents = "/api/v1/workspaces/" + WS + "/incidents";
        Map<String, byte[]> json = new LinkedHashMap<>(Map.of("Content-Type", bytes("application/json"),
                "Authorization", bytes("Bearer " + token)));
        String valid = "{\"key\":\"DUP-1\",\"title\":\"t\",\"severity\":\"SEV-3\"}";
        // duplicate keys: the service must not pick one silently
        for (String body : List.of("{\"key\":\"DUP-1\",\"key\":\"DUP-2\",\"title\":\"t\",\"severity\":\"SEV-3\"}",
                "{\"key\":\"DUP-3\",\"title\":\"t\",\"title\":\"u\",\"severity\":\"SEV-3\"}",
                "{\"key\":\"DUP-4\",\"title\":\"t\",\"severity\":\"SEV-3\",\"severity\":\"SEV-1\"}")) {
            RawHttp.Response response = http.send("POST", incidents, json, bytes(body));
            check("POST", incidents, "duplicate keys " + body, response, true);
            if (response.status() != 400) {
                violation("duplicate-keys-accepted", "POST " + incidents + " " + body + ": " + response.status() + " "
                        + abbreviate(response.text()));
            }
        }
        byte[] blob = Evidence.uniqueBytes(5000);
        String blobPath = "/api/v1/blobs/" + Evidence.digestOf(blob);
        Map<String, byte[]> octets = new LinkedHashMap<>(Map.of("Content-Type", bytes("application/octet-stream"),
                "Authorization", bytes("Bearer " + token)));
        // Content-Length larger than the body, the client then stops sending
        check("POST", incidents, "Content-Length +20, half-closed",
                http.send("POST", incidents, json, bytes(valid), (long) valid.length() + 20, true), false);
        check("PUT", blobPath, "Content-Length +1000, half-closed",
                http.send("PUT", blobPath, octets, blob, (long) blob.length + 1000, true), false);
        // Content-Length smaller than the body: the rest looks like the next request
        check("POST", incidents, "Content-Length -10",
                http.send("POST", incidents, json, bytes(valid), (long) valid.length() - 10, false), true);
        check("PUT", blobPath, "Content-Length -100",
                http.send("PUT", blobPath, octets, blob, (long) blob.length - 100, false), true);
        // absurd lengths
        for (String length : List.of("-1", "99999999999999999999", "abc", "1, 2", "")) {
            Map<String, byte[]> headers = new LinkedHashMap<>(json);
            headers.put("Content-Length", bytes(length));
            check("POST", incidents, "Content-Length: " + length,
                    http.send("POST", incidents, headers, bytes(valid), -1L, true), false);
        }
        // a body cut off mid-upload: nothing is stored, and the blob is not there afterwards
        check("PUT", blobPath, "truncated upload", http.send("PUT", blobPath, octets,
                java.util.Arrays.copyOf(blob, 2000), (long) blob.length, true), false);
        RawHttp.Response after = call("GET", blobPath, Map.of(), new byte[0]);
        if (after.status() != 404) {
            violation("truncated-upload-stored", "GET " + blobPath + " after a truncated upload: " + after.status());
        }
        // chunked with a broken chunk size
        Map<String, byte[]> chunked = new LinkedHashMap<>(octets);
        chunked.put("Transfer-Encoding", bytes("chunked"));
        check("PUT", blobPath, "broken chunked framing", http.send("PUT", blobPath, chunked,
                bytes("zz\r\nhello\r\n0\r\n\r\n"), -1L, true), false);
    }

    // ---- arbitraries ---------------------------------------------------------------------------------------------

    @Provide
    Arbitrary<Op> operations() {
        return Arbitraries.of(operations);
    }

    @Provide
    Arbitrary<Op> operationsWithBodies() {
        return Arbitraries.of(operations.stream().filter(op -> op.mediaType() != null
                && !op.mediaType().equals("application/octet-stream")).toList());
    }

    @Provide
    Arbitrary<Op> operationsWithJsonBodies() {
        return Arbitraries.of(operations.stream().filter(op -> op.example() != null && op.example().size() > 0).toList());
    }

    @Provide
    Arbitrary<Integer> indexes() {
        return Arbitraries.integers().between(0, 10_000);
    }

    @Provide
    Arbitrary<Encoding> encodings() {
        return Arbitraries.of(Encoding.class);
    }

    @Provide
    Arbitrary<Mutation> fieldMutations() {
        return Arbitraries.of(Mutation.class);
    }

    @Provide
    Arbitrary<Framing> bodyFramings() {
        return Arbitraries.of(Framing.class);
    }

    @Provide
    Arbitrary<String> headerNames() {
        return Arbitraries.of("Authorization", "Content-Type", "Accept", "Range", "If-None-Match", "If-Range",
                "Content-Digest", "Accept-Encoding", "Accept-Language", "X-Forwarded-For", "X-Forwarded-Host",
                "Transfer-Encoding", "Expect", "Cookie", "Origin");
    }

    /** Strings that have broken parsers before, whole or spliced into a valid value. */
    static final List<String> HOSTILE = List.of("", " ", "\t", "x".repeat(300), "y".repeat(5000), "z".repeat(70_000),
            "e\u0301", "Cafe\u0301", "\u202Eevil\u202C", "\u200Bzero\u200Bwidth", "\uFEFFbom", "\uD800", "\uDC00x",
            "a\uD83D", "\uD83E\uDD84", "a\u0000b", "\u0000", "\u0007\u001B[31m", "../../../../etc/passwd", "..",
            "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2f", "..\\..\\windows\\win.ini", "/", "//", "%", "%zz", "%00", "?",
            "#", ";", "a;b=c", "*", "~", "NaN", "-1", "0", "1e400", "99999999999999999999999999999", "-0",
            "9223372036854775808", "0x10", "true", "null", "[]", "{}", "\"", "'", "\\", "<script>alert(1)</script>",
            "' OR '1'='1", "${jndi:ldap://127.0.0.1/x}", "#{7*7}", "{{7*7}}", "ＩＮＣ-1", "İ", "ß", "ǅ",
            "\u00A0", "\u2028", "sha256:" + "0".repeat(64), "sha256:" + "G".repeat(64), "SHA256:" + "a".repeat(64),
            "sha256:" + "a".repeat(63), "sha512:" + "a".repeat(128), "bytes=0-", "bytes=-0", "bytes=99999999999999999999-",
            "bytes=0-1,2-3", "bytes=5-1", "W/\"x\"", "*/*;q=abc", "application/json; charset=utf-99", "text/html",
            "artifact:hostile:v1:HOST-1:seed/../x", "finding:hostile:v1:HOST-1:" + "f".repeat(65),
            "action:hostile:v1:HOST-1:0", "action:hostile:v1:HOST-1:9999999999", "Bearer", "Bearer ",
            "Bearer eyJhbGciOiJub25lIn0.eyJ1cG4iOiJ4In0.", "Basic YTpi");

    @Provide
    Arbitrary<String> hostileStrings() {
        Arbitrary<String> listed = Arbitraries.of(HOSTILE);
        Arbitrary<String> generated = Arbitraries.strings().all().ofMaxLength(24);
        Arbitrary<String> spliced = Combinators.combine(Arbitraries.of("hostile", "HOST-1", "seed", "2026-06-18T09:00:00Z"),
                listed).as((valid, bad) -> valid + bad);
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, listed), net.jqwik.api.Tuple.of(2, generated),
                net.jqwik.api.Tuple.of(2, spliced));
    }

    /** JSON tokens in their raw text: strings with every escape, numbers out of range, wrong types, deep nesting. */
    @Provide
    Arbitrary<String> hostileJson() {
        Arbitrary<String> strings = hostileStrings().map(HostileInputIT::jsonString);
        Arbitrary<String> others = Arbitraries.of("1e400", "-1e400", "1e-400", "-0", "99999999999999999999999999999",
                "9223372036854775808", "-9223372036854775809", "2147483648", "0.1", "-1", "0", "NaN", "Infinity",
                "0x10", "01", "true", "false", "null", "[]", "{}", "[null]", "[\"\"]", "{\"\":null}",
                "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\\ud800\"", "\"\\uZZZZ\"", "\"unterminated", "'single'",
                "[".repeat(3000) + "]".repeat(3000), "\"" + "x".repeat(2_000_000) + "\"",
                "[" + "1,".repeat(100_000) + "1]");
        return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(5, strings), net.jqwik.api.Tuple.of(5, others));
    }

    enum Mutation { REPLACE, REMOVE, DUPLICATE_BEFORE, DUPLICATE_AFTER, ADD_UNKNOWN_BESIDE }

    enum Framing { REPLACED, TRUNCATED, INVALID_UTF8, BOM, NESTED }

    /** How a hostile value goes into a path segment. */
    enum Encoding {
        /** every byte but unreserved characters percent-encoded; lone surrogates as their WTF-8 bytes */
        PERCENT,
        /** as given where a request line can carry it ("../", "%", ";" stay), other bytes percent-encoded */
        RAW,
        /** the UTF-8 bytes as they are, unencoded (not valid in a request line) */
        RAW_UTF8;

        String encode(String value) {
            StringBuilder out = new StringBuilder();
            for (byte b : wtf8(value)) {
                int c = b & 0xFF;
                boolean unreserved = Character.isLetterOrDigit(c) && c < 128 || "-._~".indexOf(c) >= 0;
                boolean raw = this == RAW && c > 32 && c < 127 && c != '#' && c != '?';
                if (this == RAW_UTF8 && (c >= 128 || c > 32 && c != '#' && c != '?')) {
                    out.append((char) c);
                } else if (unreserved || raw) {
                    out.append((char) c);
                } else {
                    out.append('%').append(String.format("%02X", c));
                }
            }
            return out.toString();
        }

        byte[] bytes(String value) {
            return wtf8(value);
        }
    }

    // ---- sending and judging -------------------------------------------------------------------------------------

    /**
     * Sends a request of {@code op}: valid path parameters unless {@code pathValues} spoils one (already encoded;
     * "__query__" is a query string, "__extra_path__" a segment added to the path), the valid body unless
     * {@code body} is given, the bearer token unless {@code headers} replaces it.
     */
    private static void send(Op op, Map<String, String> pathValues, Map<String, byte[]> headers, byte[] body,
                             String what) {
        StringBuilder target = new StringBuilder();
        for (String segment : op.path().split("/", -1)) {
            if (target.length() > 0 || !segment.isEmpty()) {
                target.append('/');
            }
            if (segment.startsWith("{") && segment.endsWith("}")) {
                String name = segment.substring(1, segment.length() - 1);
                target.append(pathValues.getOrDefault(name, Encoding.PERCENT.encode(validPathValue(op, name))));
            } else {
                target.append(segment);
            }
        }
        if (pathValues.containsKey("__extra_path__")) {
            target.append('/').append(pathValues.get("__extra_path__"));
        }
        if (pathValues.containsKey("__query__")) {
            target.append('?').append(pathValues.get("__query__"));
        }
        Map<String, byte[]> all = new LinkedHashMap<>();
        all.put("Authorization", bytes("Bearer " + token));
        if (op.mediaType() != null) {
            all.put("Content-Type", bytes(op.mediaType()));
        }
        all.putAll(headers);
        byte[] payload = body != null ? body : validBody(op);
        RawHttp.Response response = http.send(op.method(), target.toString(), all, payload);
        check(op.method(), op.path(), what, response, true);
    }

    private static String validPathValue(Op op, String name) {
        return switch (name) {
            case "workspace" -> WS;
            case "key" -> KEY;
            case "digest" -> VALID.get("digest");
            case "id" -> op.path().startsWith("/api/v1/artifacts") ? VALID.get("artifactId")
                    : op.path().startsWith("/api/v1/actions") ? VALID.get("actionId") : VALID.get("findingId");
            default -> "x";
        };
    }

    private static byte[] validBody(Op op) {
        if (op.mediaType() == null) {
            return new byte[0];
        }
        if (op.mediaType().equals("application/octet-stream")) {
            return bytes("hostile bytes " + REQUESTS.get());
        }
        if (op.example() == null) {
            return bytes("# notes citing artifact:hostile:v1:HOST-1:seed");
        }
        return bytes(op.example().toString());
    }

    /** Judges one answer: never 5xx, always a problem document when an error, no stored row changed when refused. */
    private static void check(String method, String path, String what, RawHttp.Response response, boolean mustAnswer) {
        REQUESTS.incrementAndGet();
        String statusKey = response.status() == 0 ? "no-answer" : String.valueOf(response.status());
        STATUSES.computeIfAbsent(statusKey, k -> new AtomicInteger()).incrementAndGet();
        String where = method + " " + path + " with " + what;
        if (response.status() == 0) {
            if (mustAnswer) {
                violation("no-answer", where + ": " + response.failure());
            }
        } else if (response.status() >= 500) {
            violation("5xx", where + ": " + response.status() + " " + abbreviate(response.text()));
        } else if (response.status() >= 400) {
            String type = response.header("content-type");
            if (type == null && response.status() != 500) {
                // refused by the HTTP layer (Vert.x/Netty) before any resource or exception mapper saw the request
                violation("http-layer-error-without-body-type", where + ": " + response.status() + " "
                        + abbreviate(response.text()));
            } else if (type == null || !type.startsWith("application/problem+json")) {
                violation("error-not-problem-json", where + ": " + response.status() + " " + type + " "
                        + abbreviate(response.text()));
            } else if (!method.equals("HEAD")) {
                try {
                    JsonNode problem = JSON.readTree(response.body());
                    if (!problem.path("type").isTextual() || !problem.path("title").isTextual()
                            || problem.path("status").asInt() != response.status() || !problem.path("detail").isTextual()) {
                        violation("problem-members", where + ": " + abbreviate(response.text()));
                    }
                } catch (Exception e) {
                    violation("problem-not-json", where + ": " + abbreviate(response.text()));
                }
            }
        }
        try {
            // every write that reaches a resource, or matches one and is refused for its media types (415, 406),
            // refused or not, is appended to the audit log; requests refused while routing (404 and 405 of unknown
            // paths), requests that are not well-formed HTTP, and reads sent as POST are not
            long audited = auditEntries();
            boolean write = (method.equals("POST") || method.equals("PUT") || method.equals("PATCH"))
                    && !path.equals("/api/v1/citations/check") && !path.equals("/api/v1/audit/verify");
            boolean routed = !List.of(404, 405).contains(response.status()) && !refusedByHttpLayer(response);
            if (write && routed && response.status() > 0 && audited == auditEntries) {
                violation("write-not-audited", where + ": " + response.status() + " " + abbreviate(response.text()));
            }
            auditEntries = audited;
            String now = snapshot();
            if (response.status() >= 400 || response.status() == 0) {
                if (!now.equals(snapshot)) {
                    violation("refused-but-changed", where + ": " + response.status() + " " + abbreviate(response.text()));
                }
            }
            snapshot = now;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Refused before any operation was chosen: not well-formed HTTP, or over the HTTP server's limits. */
    private static boolean refusedByHttpLayer(RawHttp.Response response) {
        if (!String.valueOf(response.header("content-type")).startsWith("application/problem+json")) {
            return false;
        }
        try {
            String type = JSON.readTree(response.body()).path("type").asText();
            return HTTP_LAYER_PROBLEMS.contains(type.substring(type.lastIndexOf('/') + 1));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void violation(String kind, String detail) {
        VIOLATION_KINDS.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
        if (VIOLATIONS.size() < 2000) {
            VIOLATIONS.add(kind + ": " + detail);
        }
    }

    // ---- the contract --------------------------------------------------------------------------------------------

    private static List<Op> readContract() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setResolveFully(true);
        OpenAPI api = new OpenAPIV3Parser().read("openapi/openapi.yaml", null, options);
        List<Op> ops = new ArrayList<>();
        for (Map.Entry<String, PathItem> entry : api.getPaths().entrySet()) {
            PathItem item = entry.getValue();
            for (Map.Entry<PathItem.HttpMethod, Operation> method : item.readOperationsMap().entrySet()) {
                Operation operation = method.getValue();
                List<Parameter> parameters = new ArrayList<>();
                if (item.getParameters() != null) {
                    parameters.addAll(item.getParameters());
                }
                if (operation.getParameters() != null) {
                    parameters.addAll(operation.getParameters());
                }
                String mediaType = null;
                JsonNode example = null;
                if (operation.getRequestBody() != null && operation.getRequestBody().getContent() != null) {
                    Map.Entry<String, MediaType> content = operation.getRequestBody().getContent().entrySet().iterator().next();
                    mediaType = content.getKey();
                    example = exampleOf(content.getValue());
                }
                ops.add(new Op(method.getKey().name(), entry.getKey(), parameters, mediaType, example));
            }
        }
        if (ops.size() < 30) {
            throw new IllegalStateException("read only " + ops.size() + " operations from openapi/openapi.yaml");
        }
        return ops;
    }

    private static JsonNode exampleOf(MediaType content) {
        Object example = content.getExample();
        if (example == null && content.getExamples() != null && !content.getExamples().isEmpty()) {
            example = content.getExamples().values().iterator().next().getValue();
        }
        if (example != null) {
            JsonNode node = JSON.valueToTree(example);
            return node.isTextual() ? null : node;
        }
        return content.getSchema() == null ? null : fromSchema(content.getSchema(), 0);
    }

    @SuppressWarnings("rawtypes")
    private static JsonNode fromSchema(Schema schema, int depth) {
        if (schema.getExample() != null) {
            return JSON.valueToTree(schema.getExample());
        }
        if (schema.getEnum() != null && !schema.getEnum().isEmpty()) {
            return JSON.valueToTree(schema.getEnum().get(0));
        }
        String type = schema.getType() != null ? schema.getType()
                : schema.getTypes() != null && !schema.getTypes().isEmpty() ? (String) schema.getTypes().iterator().next()
                : schema.getProperties() != null ? "object" : "string";
        switch (type) {
            case "object": {
                ObjectNode node = JSON.createObjectNode();
                if (schema.getProperties() != null && depth < 4) {
                    Map<String, Schema> properties = schema.getProperties();
                    properties.forEach((name, property) -> node.set(name, fromSchema(property, depth + 1)));
                }
                return node;
            }
            case "array": {
                ArrayNode node = JSON.createArrayNode();
                if (schema.getItems() != null && depth < 4) {
                    node.add(fromSchema(schema.getItems(), depth + 1));
                }
                return node;
            }
            case "integer":
                return JSON.getNodeFactory().numberNode(1);
            case "number":
                return JSON.getNodeFactory().numberNode(1.5);
            case "boolean":
                return JSON.getNodeFactory().booleanNode(true);
            default:
                return JSON.getNodeFactory().textNode("date-time".equals(schema.getFormat()) ? "2026-06-18T09:00:00Z"
                        : "date".equals(schema.getFormat()) ? "2026-06-26" : "text");
        }
    }

    /** Every path to a member or array element of a JSON value, e.g. [capture, query] or [artifactIds, 0]. */
    private static List<List<Object>> paths(JsonNode node, List<Object> prefix) {
        List<List<Object>> out = new ArrayList<>();
        if (node.isObject()) {
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                List<Object> path = new ArrayList<>(prefix);
                path.add(name);
                out.add(path);
                out.addAll(paths(node.get(name), path));
            }
        } else if (node.isArray() && node.size() > 0) {
            List<Object> path = new ArrayList<>(prefix);
            path.add(0);
            out.add(path);
            out.addAll(paths(node.get(0), path));
        }
        return out;
    }

    /** Writes {@code node} as JSON text with the member or element at {@code target} mutated. */
    private static String write(JsonNode node, List<Object> target, Mutation mutation, String token) {
        StringBuilder out = new StringBuilder();
        write(node, new ArrayList<>(), target, mutation, token, out);
        return out.toString();
    }

    private static void write(JsonNode node, List<Object> at, List<Object> target, Mutation mutation, String token,
                              StringBuilder out) {
        if (node.isObject()) {
            out.append('{');
            boolean first = true;
            for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                Map.Entry<String, JsonNode> field = fields.next();
                List<Object> path = new ArrayList<>(at);
                path.add(field.getKey());
                boolean hit = path.equals(target);
                if (hit && mutation == Mutation.REMOVE) {
                    continue;
                }
                String name = jsonString(field.getKey());
                if (hit && mutation == Mutation.DUPLICATE_BEFORE) {
                    out.append(first ? "" : ",").append(name).append(':').append(token);
                    first = false;
                }
                out.append(first ? "" : ",").append(name).append(':');
                first = false;
                if (hit && mutation == Mutation.REPLACE) {
                    out.append(token);
                } else {
                    write(field.getValue(), path, target, mutation, token, out);
                }
                if (hit && mutation == Mutation.DUPLICATE_AFTER) {
                    out.append(',').append(name).append(':').append(token);
                }
                if (hit && mutation == Mutation.ADD_UNKNOWN_BESIDE) {
                    out.append(',').append(jsonString("unknown" + field.getKey())).append(':').append(token);
                }
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                List<Object> path = new ArrayList<>(at);
                path.add(i);
                boolean hit = path.equals(target);
                if (hit && mutation == Mutation.REMOVE) {
                    continue;
                }
                if (out.charAt(out.length() - 1) != '[') {
                    out.append(',');
                }
                if (hit && mutation != Mutation.ADD_UNKNOWN_BESIDE) {
                    out.append(token);
                    if (mutation == Mutation.DUPLICATE_BEFORE || mutation == Mutation.DUPLICATE_AFTER) {
                        out.append(',').append(node.get(i).toString());
                    }
                } else {
                    write(node.get(i), path, target, mutation, token, out);
                }
            }
            out.append(']');
        } else {
            out.append(node.toString());
        }
    }

    /** A JSON string literal in ASCII: every control, non-ASCII and surrogate character as a \\u escape. */
    static String jsonString(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 32 || c > 126) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    // ---- evidence the requests aim at ----------------------------------------------------------------------------

    private static void seed() throws Exception {
        Map<String, String> json = Map.of("Content-Type", "application/json");
        expect(201, call("POST", "/api/v1/workspaces/" + WS + "/incidents", json,
                bytes("{\"key\":\"" + KEY + "\",\"title\":\"Hostile input\",\"severity\":\"SEV-2\","
                        + "\"impactStart\":\"2026-06-18T09:00:00Z\"}")));
        byte[] blob = bytes("{\"panel\":\"hostile\",\"seed\":" + System.nanoTime() + "}");
        String digest = Evidence.digestOf(blob);
        VALID.put("digest", digest);
        expect(201, call("PUT", "/api/v1/blobs/" + digest, Map.of("Content-Type", "application/octet-stream"), blob));
        String incident = "/api/v1/workspaces/" + WS + "/incidents/" + KEY;
        expect(201, call("POST", incident + "/artifacts", json, bytes("{\"name\":\"seed\",\"digest\":\"" + digest
                + "\",\"mediaType\":\"application/json\",\"source\":\"grafana\",\"kind\":\"snapshot\","
                + "\"capturedAt\":\"2026-06-18T10:20:00Z\"}")));
        VALID.put("artifactId", "artifact:" + WS + ":v1:" + KEY + ":seed");
        expect(201, call("POST", "/api/v1/artifacts/" + VALID.get("artifactId") + "/verifications", json, bytes("{}")));
        expect(201, call("POST", incident + "/findings", json, bytes("{\"name\":\"seeded\",\"kind\":\"supporting\","
                + "\"statement\":\"Seeded.\",\"artifactIds\":[\"" + VALID.get("artifactId") + "\"]}")));
        VALID.put("findingId", "finding:" + WS + ":v1:" + KEY + ":seeded");
        expect(201, call("POST", incident + "/timeline", json, bytes("{\"at\":\"2026-06-18T09:18:00Z\","
                + "\"event\":\"Seeded.\",\"artifactIds\":[\"" + VALID.get("artifactId") + "\"]}")));
        expect(201, call("POST", incident + "/actions", json, bytes("{\"action\":\"Seed.\",\"owner\":\"Edward Green\","
                + "\"due\":\"2026-06-26\",\"status\":\"open\"}")));
        VALID.put("actionId", "action:" + WS + ":v1:" + KEY + ":1");
        RawHttp.Response rootCause = call("PUT", incident + "/root-cause", json, bytes("{\"statement\":\"Seeded.\","
                + "\"confidence\":\"high\",\"findingIds\":[\"" + VALID.get("findingId") + "\"]}"));
        if (rootCause.status() / 100 != 2) {
            throw new IllegalStateException("seeding the root cause: " + rootCause.status() + " " + rootCause.text());
        }
    }

    private static RawHttp.Response call(String method, String path, Map<String, ?> headers, byte[] body) {
        Map<String, byte[]> all = new LinkedHashMap<>();
        all.put("Authorization", bytes("Bearer " + token));
        headers.forEach((name, value) -> all.put(name, value instanceof byte[] b ? b : bytes(value.toString())));
        return http.send(method, path, all, body);
    }

    private static void expect(int status, RawHttp.Response response) {
        if (response.status() != status) {
            throw new IllegalStateException("seeding: expected " + status + ", got " + response.status() + " "
                    + response.text());
        }
    }

    // ---- the database, as an operator sees it --------------------------------------------------------------------

    private static long auditEntries() throws Exception {
        try (Statement statement = database.createStatement();
             ResultSet rs = statement.executeQuery(Sql.recordedAuditEntries("true"))) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Row count and a digest of every row of every evidence table. */
    private static String snapshot() throws Exception {
        String sql = TABLES.stream().map(t -> "(SELECT count(*) || ':' || coalesce(md5(string_agg(r::text, '|' ORDER BY "
                + "r::text)), '') FROM " + t + " r)").collect(Collectors.joining(" || ',' || ", "SELECT ", ""));
        try (Statement statement = database.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static Map<String, Set<String>> rows(List<String> tables) throws Exception {
        Map<String, Set<String>> out = new LinkedHashMap<>();
        for (String table : tables) {
            Set<String> rows = new HashSet<>();
            try (Statement statement = database.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT r::text FROM " + table + " r")) {
                while (rs.next()) {
                    rows.add(rs.getString(1));
                }
            }
            out.put(table, rows);
        }
        return out;
    }

    // ---- bytes ---------------------------------------------------------------------------------------------------

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** UTF-8, except that a lone surrogate becomes its three WTF-8 bytes instead of '?'. */
    static byte[] wtf8(String value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < value.length(); ) {
            int cp = value.codePointAt(i);
            if (cp >= 0xD800 && cp <= 0xDFFF) {
                out.write(0xE0 | cp >> 12);
                out.write(0x80 | cp >> 6 & 0x3F);
                out.write(0x80 | cp & 0x3F);
            } else {
                out.writeBytes(new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
            }
            i += Character.charCount(cp);
        }
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String describe(String value) {
        String shown = value.length() > 40 ? value.substring(0, 20) + "…(" + value.length() + " chars)" : value;
        StringBuilder out = new StringBuilder();
        for (char c : shown.toCharArray()) {
            out.append(c < 32 || c > 126 && c < 160 || Character.isSurrogate(c) || c >= 0x200B && c <= 0x202E
                    || c == 0xFEFF ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return "\"" + out + "\"";
    }

    private static String abbreviate(String text) {
        String flat = text.replace('\n', ' ');
        return flat.length() > 300 ? flat.substring(0, 300) + "…" : flat;
    }
}
