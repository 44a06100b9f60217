package dev.evidencestore.http;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.http.Header;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import org.apache.commons.codec.digest.DigestUtils;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

import static dev.evidencestore.support.Api.anonymous;
import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.incident;
import static dev.evidencestore.support.Api.invalid;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every response header the service sends that is defined as a Structured Field (RFC 8941) parses as one, with the
 * right type and value: {@code Idempotent-Replayed} is the Boolean {@code ?1} on replays and absent otherwise, and
 * {@code Repr-Digest} (RFC 9530) is a Dictionary whose {@code sha-256} is the Byte Sequence of the whole
 * representation's SHA-256. The requests below produce every kind of answer that carries one, and more; any other
 * structured header found on them (the registry's, such as {@code RateLimit} or {@code Cache-Status}) must parse
 * too, and fails the test until it is asserted here. {@code Retry-After}, {@code ETag}, {@code Location},
 * {@code Link} and {@code Cache-Control} are not Structured Fields and are not parsed.
 *
 * <p>No maintained RFC 8941 parser for Java resolves from this project's registry ({@code org.greenbytes.http:sfv}
 * is not served), so {@link Sf} is a small strict one, written from the parsing algorithms of RFC 8941 section 4.2
 * (with RFC 9651's Date), failing on anything they fail on.
 */
@QuarkusTest
class StructuredFieldsTest {

    private static final String REPLAYED = "Idempotent-Replayed";
    private static final String REPR_DIGEST = "Repr-Digest";
    private static final String KEY = "Idempotency-Key";

    /**
     * Response fields that the IANA HTTP Field Name Registry (or their own specification) defines as Structured
     * Fields, by top-level type; lower case.
     */
    private static final Map<String, Function<String, Object>> STRUCTURED = Map.ofEntries(
            Map.entry("idempotent-replayed", Sf::item),
            Map.entry("content-digest", Sf::dictionary),
            Map.entry("repr-digest", Sf::dictionary),
            Map.entry("want-content-digest", Sf::dictionary),
            Map.entry("want-repr-digest", Sf::dictionary),
            Map.entry("ratelimit", Sf::list),
            Map.entry("ratelimit-policy", Sf::list),
            Map.entry("cache-status", Sf::list),
            Map.entry("proxy-status", Sf::list),
            Map.entry("cdn-cache-control", Sf::dictionary),
            Map.entry("priority", Sf::dictionary),
            Map.entry("accept-ch", Sf::list),
            Map.entry("cross-origin-embedder-policy", Sf::item),
            Map.entry("cross-origin-embedder-policy-report-only", Sf::item),
            Map.entry("cross-origin-opener-policy", Sf::item),
            Map.entry("cross-origin-opener-policy-report-only", Sf::item),
            Map.entry("origin-agent-cluster", Sf::item),
            Map.entry("reporting-endpoints", Sf::dictionary),
            Map.entry("document-policy", Sf::dictionary),
            Map.entry("permissions-policy", Sf::dictionary),
            Map.entry("signature", Sf::dictionary),
            Map.entry("signature-input", Sf::dictionary),
            Map.entry("accept-signature", Sf::dictionary),
            Map.entry("use-as-dictionary", Sf::dictionary),
            Map.entry("deprecation", Sf::item),
            Map.entry("capsule-protocol", Sf::item));

    private final List<Response> answers = new ArrayList<>();

    private Response seen(Response response) {
        answers.add(response);
        return response;
    }

    @Test
    void everyStructuredHeaderTheServiceSendsParsesWithItsTypeAndValue() {
        String ws = "sf-" + Evidence.uniqueKey().toLowerCase(Locale.ROOT);
        String key = Evidence.uniqueKey();
        String incidents = "/api/v1/workspaces/" + ws + "/incidents";
        String base = incidents + "/" + key;

        // creates and their replays: the replayed answer is marked ?1, the first is not
        String createKey = quoted(UUID.randomUUID().toString());
        Response created = seen(keyed(createKey).contentType(ContentType.JSON).body(incident(key)).post(incidents));
        Response createdAgain = seen(keyed(createKey).contentType(ContentType.JSON).body(incident(key))
                .post(incidents));
        assertEquals(201, created.statusCode());
        assertFirstThenReplayed(created, createdAgain);

        // a refusal is replayed too
        String conflictKey = quoted(UUID.randomUUID().toString());
        Response conflict = seen(keyed(conflictKey).contentType(ContentType.JSON).body(incident(key))
                .post(incidents));
        Response conflictAgain = seen(keyed(conflictKey).contentType(ContentType.JSON).body(incident(key))
                .post(incidents));
        assertEquals(409, conflict.statusCode());
        assertFirstThenReplayed(conflict, conflictAgain);

        // a blob upload, first with the sf-string the draft specifies, retried with the same key bare, as clients
        // that send uuidgen output do: the same key, so the retry is a replay
        byte[] bytes = Evidence.uniqueBytes(1500);
        String digest = Evidence.digestOf(bytes);
        String contentDigest = Evidence.digestField(bytes);
        assertEquals(Map.of("sha-256", new Sf.Item(new Sf.Bytes(DigestUtils.sha256(bytes)), Map.of())),
                Sf.dictionary(contentDigest), "the Content-Digest this test sends is a Dictionary");
        String uuid = UUID.randomUUID().toString();
        assertEquals(new Sf.Item(uuid, Map.of()), Sf.item(quoted(uuid)), "the quoted key is an sf-string");
        Response uploaded = seen(keyed(quoted(uuid)).contentType(ContentType.BINARY)
                .header("Content-Digest", contentDigest).body(bytes).post("/api/v1/blobs"));
        Response uploadedAgain = seen(keyed(uuid).contentType(ContentType.BINARY)
                .header("Content-Digest", contentDigest).body(bytes).post("/api/v1/blobs"));
        assertEquals(201, uploaded.statusCode());
        assertFirstThenReplayed(uploaded, uploadedAgain);

        // the bytes, whole, in part, unchanged, and without a body: Repr-Digest is always that of the whole
        String blob = "/api/v1/blobs/" + digest;
        String etag = "\"" + digest + "\"";
        assertReprDigest(seen(api().get(blob)), 200, bytes);
        assertReprDigest(seen(api().header("Range", "bytes=10-99").get(blob)), 206, bytes);
        assertReprDigest(seen(api().header("If-None-Match", etag).get(blob)), 304, bytes);
        assertReprDigest(seen(api().head(blob)), 200, bytes);
        assertReprDigest(seen(api().header("Range", "bytes=-5").head(blob)), 206, bytes);

        // the same bytes as an artifact's content
        String artifactId = "artifact:" + ws + ":v1:" + key + ":log";
        Response bound = seen(api().contentType(ContentType.JSON).body(Map.of("name", "log", "digest", digest,
                "mediaType", "text/plain", "source", "grafana", "kind", "snapshot",
                "capturedAt", "2026-06-18T09:00:00Z")).post(base + "/artifacts"));
        assertEquals(201, bound.statusCode());
        String content = "/api/v1/artifacts/" + artifactId + "/content";
        assertReprDigest(seen(api().get(content)), 200, bytes);
        assertReprDigest(seen(api().header("Range", "bytes=0-0").get(content)), 206, bytes);
        assertReprDigest(seen(api().header("If-None-Match", etag).get(content)), 304, bytes);
        assertReprDigest(seen(api().head(content)), 200, bytes);

        // the evidence manifest, and its 304
        Response manifest = seen(api().get(base + "/evidence-manifest"));
        byte[] manifestBytes = manifest.asByteArray();
        assertReprDigest(manifest, 200, manifestBytes);
        assertReprDigest(seen(api().header("If-None-Match", manifest.header("ETag"))
                .get(base + "/evidence-manifest")), 304, manifestBytes);

        // other answers, which must carry no structured header but those asserted here
        seen(api().get(incidents + "?limit=1"));
        seen(api().get(base));
        seen(api().accept("text/markdown").get(base + "/postmortem"));
        seen(api().get(base + "/evidence-bundle"));
        seen(anonymous().get(incidents));
        seen(as(Tokens.bob()).contentType(ContentType.JSON).body(incident(Evidence.uniqueKey())).post(incidents));
        seen(invalid().accept("text/html").get(base));
        seen(api().header("Range", "bytes=5000-").get(blob));

        Set<String> structured = new TreeSet<>();
        for (Response answer : answers) {
            for (Map.Entry<String, String> field : fields(answer).entrySet()) {
                Function<String, Object> parser = STRUCTURED.get(field.getKey());
                if (parser != null) {
                    structured.add(field.getKey());
                    Object parsed = parser.apply(field.getValue());
                    assertFalse(parsed instanceof Map<?, ?> map && map.isEmpty(), field.getKey() + " is empty");
                }
            }
        }
        assertEquals(Set.of("idempotent-replayed", "repr-digest"), structured,
                "the structured headers sent; one not asserted above needs its assertions here");
    }

    /** Why a bare key is accepted "for compatibility" only: one starting with a digit is no sf-token. */
    @Test
    void aBareUuidIsNoStructuredFieldButAQuotedOneIs() {
        String uuid = "8e03978e-40d5-43e8-bc93-6894a57f9324";
        assertThrows(IllegalArgumentException.class, () -> Sf.item(uuid));
        assertEquals(new Sf.Item(uuid, Map.of()), Sf.item("\"" + uuid + "\""));
        assertEquals(new Sf.Item(new Sf.Token("e8e03978e-40d5"), Map.of()), Sf.item("e8e03978e-40d5"));
    }

    /** The parser is strict where RFC 8941 is, and reads what it allows. */
    @Test
    void theParserFollowsRfc8941() {
        assertEquals(new Sf.Item(true, Map.of()), Sf.item("?1"));
        assertEquals(new Sf.Item(false, Map.of("a", 1L)), Sf.item("?0;a=1"));
        assertEquals(new Sf.Item(-42L, Map.of()), Sf.item(" -42"));
        assertEquals(new Sf.Item(new BigDecimal("4.5"), Map.of("q", new BigDecimal("0.125"))), Sf.item("4.5;q=0.125"));
        assertEquals(new Sf.Item("a \"b\" \\c", Map.of()), Sf.item("\"a \\\"b\\\" \\\\c\""));
        assertEquals(new Sf.Item(new Sf.Date(1659578233L), Map.of()), Sf.item("@1659578233"));
        assertEquals(List.of(new Sf.Item(new Sf.Token("sugar"), Map.of()),
                        new Sf.InnerList(List.of(new Sf.Item(1L, Map.of()), new Sf.Item(new Sf.Token("a/b"),
                                Map.of("x", true))), Map.of("lvl", 5L))),
                Sf.list("sugar,\t(1 a/b;x);lvl=5"));
        Map<String, Object> dictionary = Sf.dictionary("sha-256=:AAEC:, md5=?0, flag;p=\"v\"");
        assertEquals(List.of("sha-256", "md5", "flag"), List.copyOf(dictionary.keySet()));
        assertArrayEquals(new byte[]{0, 1, 2}, ((Sf.Bytes) ((Sf.Item) dictionary.get("sha-256")).value()).value());
        assertEquals(new Sf.Item(true, Map.of("p", "v")), dictionary.get("flag"));
        for (String bad : List.of("", "?2", "?", "1.", "1.2345", "1234567890123456", "\"open", "\"a\\n\"",
                ":AA=", "1 2", "a,", "\"é\"", "@1.5", "(1 2", "a;B=1", "tok\u0001")) {
            assertThrows(IllegalArgumentException.class, () -> Sf.item(bad), bad);
        }
        for (String bad : List.of("a,", ",a", "a,,b", "(1)(2)")) {
            assertThrows(IllegalArgumentException.class, () -> Sf.list(bad), bad);
        }
        for (String bad : List.of("A=1", "a=1,", "a=?1 b", "1a=1", "a=")) {
            assertThrows(IllegalArgumentException.class, () -> Sf.dictionary(bad), bad);
        }
    }

    private static RequestSpecification keyed(String key) {
        return api().header(KEY, key);
    }

    private static String quoted(String key) {
        return "\"" + key + "\"";
    }

    /** The first answer carries no Idempotent-Replayed; the retry's is the Boolean true, without parameters. */
    private static void assertFirstThenReplayed(Response first, Response retry) {
        assertNull(first.header(REPLAYED), "a first answer is not a replay");
        assertEquals(first.statusCode(), retry.statusCode());
        Sf.Item replayed = Sf.item(fields(retry).get("idempotent-replayed"));
        assertEquals(new Sf.Item(true, Map.of()), replayed, "Idempotent-Replayed is the sf-boolean ?1");
    }

    /** Repr-Digest is a Dictionary whose sha-256 member is the 32-byte digest of the whole representation. */
    private static void assertReprDigest(Response response, int status, byte[] representation) {
        assertEquals(status, response.statusCode());
        String field = fields(response).get("repr-digest");
        assertTrue(field != null, REPR_DIGEST + " is sent with " + status);
        Map<String, Object> digests = Sf.dictionary(field);
        assertEquals(Set.of("sha-256"), digests.keySet());
        Sf.Item sha256 = assertInstanceOf(Sf.Item.class, digests.get("sha-256"), "sha-256 is an Item");
        assertEquals(Map.of(), sha256.params());
        byte[] value = assertInstanceOf(Sf.Bytes.class, sha256.value(), "sha-256 is a Byte Sequence").value();
        assertArrayEquals(DigestUtils.sha256(representation), value);
    }

    /** The response's fields by lower-case name, several lines of one field joined as RFC 8941 section 4.2 says. */
    private static Map<String, String> fields(Response response) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (Header header : response.headers().asList()) {
            fields.merge(header.getName().toLowerCase(Locale.ROOT), header.getValue(), (a, b) -> a + ", " + b);
        }
        return fields;
    }

    /**
     * A strict parser of RFC 8941 Structured Field Values (Lists, Dictionaries, Items, Inner Lists, Parameters and
     * every bare item type, and RFC 9651's Date), following the algorithms of RFC 8941 section 4.2 step by step.
     * Integers are Longs, Decimals BigDecimals, Strings Strings, Booleans Booleans; Tokens, Byte Sequences and
     * Dates have records of their own. Anything the algorithms fail on throws IllegalArgumentException.
     */
    static final class Sf {

        record Item(Object value, Map<String, Object> params) {
        }

        record InnerList(List<Item> items, Map<String, Object> params) {
        }

        record Token(String value) {
        }

        record Date(long seconds) {
        }

        record Bytes(byte[] value) {
            @Override
            public boolean equals(Object other) {
                return other instanceof Bytes bytes && Arrays.equals(value, bytes.value);
            }

            @Override
            public int hashCode() {
                return Arrays.hashCode(value);
            }

            @Override
            public String toString() {
                return ":" + Base64.getEncoder().encodeToString(value) + ":";
            }
        }

        private final String input;
        private int at;

        private Sf(String field) {
            if (field == null) {
                throw new IllegalArgumentException("no such field");
            }
            for (char c : field.toCharArray()) {
                if (c > 0x7f) {
                    throw new IllegalArgumentException("not ASCII: " + field);
                }
            }
            this.input = field;
        }

        static Item item(String field) {
            return whole(field, Sf::parseItem);
        }

        static List<Object> list(String field) {
            return whole(field, Sf::parseList);
        }

        static Map<String, Object> dictionary(String field) {
            return whole(field, Sf::parseDictionary);
        }

        /** Section 4.2: leading and trailing spaces are discarded; anything else left over fails. */
        private static <T> T whole(String field, Function<Sf, T> type) {
            Sf parser = new Sf(field);
            parser.skipSpaces();
            T value = type.apply(parser);
            parser.skipSpaces();
            if (!parser.atEnd()) {
                throw parser.fail("trailing characters");
            }
            return value;
        }

        private List<Object> parseList() {
            List<Object> members = new ArrayList<>();
            while (!atEnd()) {
                members.add(parseItemOrInnerList());
                skipOws();
                if (atEnd()) {
                    return members;
                }
                expect(',');
                skipOws();
                if (atEnd()) {
                    throw fail("trailing comma");
                }
            }
            return members;
        }

        private Map<String, Object> parseDictionary() {
            Map<String, Object> members = new LinkedHashMap<>();
            while (!atEnd()) {
                String key = parseKey();
                Object member;
                if (peek() == '=') {
                    at++;
                    member = parseItemOrInnerList();
                } else {
                    member = new Item(true, parseParameters());
                }
                members.put(key, member);
                skipOws();
                if (atEnd()) {
                    return members;
                }
                expect(',');
                skipOws();
                if (atEnd()) {
                    throw fail("trailing comma");
                }
            }
            return members;
        }

        private Object parseItemOrInnerList() {
            return peek() == '(' ? parseInnerList() : parseItem();
        }

        private InnerList parseInnerList() {
            expect('(');
            List<Item> items = new ArrayList<>();
            while (!atEnd()) {
                skipSpaces();
                if (peek() == ')') {
                    at++;
                    return new InnerList(items, parseParameters());
                }
                items.add(parseItem());
                if (peek() != ' ' && peek() != ')') {
                    throw fail("items of an inner list are separated by spaces");
                }
            }
            throw fail("unclosed inner list");
        }

        private Item parseItem() {
            Object value = parseBareItem();
            return new Item(value, parseParameters());
        }

        private Map<String, Object> parseParameters() {
            Map<String, Object> params = new LinkedHashMap<>();
            while (peek() == ';') {
                at++;
                skipSpaces();
                String key = parseKey();
                Object value = true;
                if (peek() == '=') {
                    at++;
                    value = parseBareItem();
                }
                params.put(key, value);
            }
            return params;
        }

        private String parseKey() {
            char first = peek();
            if (!(first >= 'a' && first <= 'z') && first != '*') {
                throw fail("a key starts with a lower-case letter or *");
            }
            int start = at;
            while (!atEnd() && isKeyChar(peek())) {
                at++;
            }
            return input.substring(start, at);
        }

        private Object parseBareItem() {
            char c = peek();
            if (c == '-' || isDigit(c)) {
                return parseNumber();
            }
            if (c == '"') {
                return parseString();
            }
            if (c == ':') {
                return parseBytes();
            }
            if (c == '?') {
                return parseBoolean();
            }
            if (c == '@') {
                at++;
                Object seconds = parseNumber();
                if (!(seconds instanceof Long value)) {
                    throw fail("a date is an integer");
                }
                return new Date(value);
            }
            if (isAlpha(c) || c == '*') {
                return parseToken();
            }
            throw fail("no bare item starts with this character");
        }

        private Object parseNumber() {
            int start = at;
            boolean negative = false;
            if (peek() == '-') {
                negative = true;
                at++;
            }
            if (!isDigit(peek())) {
                throw fail("a number needs a digit");
            }
            boolean decimal = false;
            int dot = -1;
            StringBuilder number = new StringBuilder();
            while (!atEnd()) {
                char c = peek();
                if (isDigit(c)) {
                    number.append(c);
                } else if (!decimal && c == '.') {
                    if (number.length() > 12) {
                        throw fail("a decimal has at most 12 integer digits");
                    }
                    decimal = true;
                    dot = number.length();
                    number.append(c);
                } else {
                    break;
                }
                at++;
                if (!decimal && number.length() > 15) {
                    throw fail("an integer has at most 15 digits");
                }
                if (decimal && number.length() > 16) {
                    throw fail("a decimal has at most 16 characters");
                }
            }
            if (!decimal) {
                long value = Long.parseLong(number.toString());
                return negative ? -value : value;
            }
            if (dot == number.length() - 1) {
                throw fail("a decimal does not end with its dot");
            }
            if (number.length() - dot - 1 > 3) {
                throw fail("a decimal has at most 3 fraction digits");
            }
            BigDecimal value = new BigDecimal(number.toString());
            return negative ? value.negate() : value;
        }

        private String parseString() {
            expect('"');
            StringBuilder value = new StringBuilder();
            while (!atEnd()) {
                char c = input.charAt(at++);
                if (c == '\\') {
                    if (atEnd()) {
                        throw fail("a string ends in a backslash");
                    }
                    char escaped = input.charAt(at++);
                    if (escaped != '"' && escaped != '\\') {
                        throw fail("a string escapes only \" and \\");
                    }
                    value.append(escaped);
                } else if (c == '"') {
                    return value.toString();
                } else if (c < 0x20 || c > 0x7e) {
                    throw fail("a string holds printable ASCII only");
                } else {
                    value.append(c);
                }
            }
            throw fail("unclosed string");
        }

        private Token parseToken() {
            int start = at;
            at++;
            while (!atEnd() && (isTchar(peek()) || peek() == ':' || peek() == '/')) {
                at++;
            }
            return new Token(input.substring(start, at));
        }

        private Bytes parseBytes() {
            expect(':');
            int end = input.indexOf(':', at);
            if (end < 0) {
                throw fail("unclosed byte sequence");
            }
            String base64 = input.substring(at, end);
            for (char c : base64.toCharArray()) {
                if (!isAlpha(c) && !isDigit(c) && c != '+' && c != '/' && c != '=') {
                    throw fail("a byte sequence holds base64 only");
                }
            }
            at = end + 1;
            try {
                return new Bytes(Base64.getDecoder().decode(base64));
            } catch (IllegalArgumentException e) {
                throw fail("not base64: " + e.getMessage());
            }
        }

        private Boolean parseBoolean() {
            expect('?');
            char c = peek();
            if (c != '0' && c != '1') {
                throw fail("a boolean is ?0 or ?1");
            }
            at++;
            return c == '1';
        }

        private void expect(char c) {
            if (peek() != c) {
                throw fail("expected " + c);
            }
            at++;
        }

        private char peek() {
            return atEnd() ? '\0' : input.charAt(at);
        }

        private boolean atEnd() {
            return at >= input.length();
        }

        private void skipSpaces() {
            while (peek() == ' ') {
                at++;
            }
        }

        private void skipOws() {
            while (peek() == ' ' || peek() == '\t') {
                at++;
            }
        }

        private IllegalArgumentException fail(String why) {
            return new IllegalArgumentException(why + " at " + at + " of [" + input + "]");
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isAlpha(char c) {
            return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
        }

        private static boolean isKeyChar(char c) {
            return c >= 'a' && c <= 'z' || isDigit(c) || c == '_' || c == '-' || c == '.' || c == '*';
        }

        /** RFC 9110 tchar. */
        private static boolean isTchar(char c) {
            return isAlpha(c) || isDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
        }
    }
}
