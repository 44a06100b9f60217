package dev.evidencestore.render;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Sql;
import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import org.apache.commons.codec.digest.DigestUtils;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Heading;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.erdtman.jcs.JsonCanonicalizer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.as;
import static dev.evidencestore.support.Api.invalidAs;
import static dev.evidencestore.support.Api.problem;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The postmortem, the evidence manifest and bundle, and the citation check, on a small complete investigation. */
@QuarkusTest
class PostmortemApiTest {

    private static final String WS = "postmortems";

    private String key;
    private String base;
    private String panel;
    private String panelDigest;
    private String gap;

    @BeforeEach
    void investigation() {
        key = Evidence.uniqueKey();
        base = "/api/v1/workspaces/" + WS + "/incidents/" + key;
        api().contentType(ContentType.JSON).body(Map.of("key", key, "title", "Checkout latency | webhooks",
                        "severity", "SEV-1", "status", "resolved", "services", List.of("Checkout API"),
                        "impactStart", "2026-06-18T09:00:00Z", "impactEnd", "2026-06-18T10:24:00Z",
                        "commander", "Ivo", "investigationQuestion", "Did the deployment saturate the workers?"))
                .post("/api/v1/workspaces/" + WS + "/incidents").then().statusCode(201);
        byte[] bytes = Evidence.utf8("{\"p95\": 4.8, \"run\": \"" + key + "\"}");
        panelDigest = Evidence.digestOf(bytes);
        panel = artifact("grafana-checkout", bytes, "grafana", "snapshot");
        gap = artifact("intercom-readiness", Evidence.utf8("{\"reason\":\"not configured " + key + "\"}"),
                "intercom", "source-unavailable");
        List<String> findings = List.of(finding("queue-after-deploy", "supporting", panel),
                finding("intercom-gap", "gap", gap));
        for (String artifact : List.of(panel, gap)) {
            as(Tokens.bob()).contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", artifact)
                    .then().statusCode(201);
        }
        for (String finding : findings) {
            as(Tokens.bob()).contentType(ContentType.JSON).body(Map.of("decision", "accepted", "note", "Checked."))
                    .post("/api/v1/findings/{id}/reviews", finding).then().statusCode(201);
        }
        api().contentType(ContentType.JSON).body(Map.of("at", "2026-06-18T09:18:00Z", "event", "Deployment correlated.",
                "artifactIds", List.of(panel))).post(base + "/timeline").then().statusCode(201);
        api().contentType(ContentType.JSON).body(Map.of("action", "Requeue only failed deliveries.", "owner", "Edward",
                "due", "2026-06-26", "status", "open")).post(base + "/actions").then().statusCode(201);
    }

    private String artifact(String name, byte[] bytes, String source, String kind) {
        String digest = api().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs").then().statusCode(201)
                .extract().path("digest");
        return api().contentType(ContentType.JSON).body(Map.of("name", name, "digest", digest,
                        "mediaType", "application/json", "source", source, "kind", kind,
                        "capturedAt", "2026-06-18T10:20:00Z", "description", "Evidence from " + source))
                .post(base + "/artifacts").then().statusCode(201).extract().path("id");
    }

    private String finding(String name, String kind, String artifact) {
        return api().contentType(ContentType.JSON).body(Map.of("name", name, "kind", kind,
                        "statement", "Statement of " + name, "artifactIds", List.of(artifact)))
                .post(base + "/findings").then().statusCode(201).extract().path("id");
    }

    private String markdown() {
        return api().accept("text/markdown").get(base + "/postmortem").then().statusCode(200)
                .contentType(containsString("text/markdown")).extract().asString();
    }

    private Response manifest() {
        return api().get(base + "/evidence-manifest");
    }

    @Test
    void thePostmortemCitesEveryArtifactByIdAndDigestAndEndsWithTheManifestDigest() {
        String page = markdown();
        String manifestEtag = manifest().then().statusCode(200).extract().header("ETag");
        assertThat(page, containsString("# " + key + ": Checkout latency | webhooks"));
        assertThat(page, containsString("| Impact window | 2026-06-18 09:00–10:24 UTC |"));
        assertThat(page, containsString("The investigation asked: \"Did the deployment saturate the workers?\""));
        assertThat(page, containsString("- `" + panel + "` `" + panelDigest + "`"));
        assertThat(page, containsString("**intercom** (unavailable): Evidence from intercom"));
        assertThat(page, containsString("| 09:18 | +18m | Deployment correlated. `" + panel + "` |"));
        assertThat(page, containsString("_No root cause has been proposed._"));
        assertThat(page, containsString("## What went well\n\n_Nothing has been recorded._"));
        assertThat(page, containsString("| Edward | 2026-06-26 | Open (overdue) | Requeue only failed deliveries. |"));
        assertThat(page, containsString("verified by bob"));
        assertThat(page, endsWith("Evidence manifest digest: `" + manifestEtag.replace("\"", "") + "`\n"));
        String html = api().accept("text/html").get(base + "/postmortem").then().statusCode(200)
                .contentType(containsString("text/html")).extract().asString();
        assertThat(html, containsString("<h1>" + key + ": Checkout latency | webhooks</h1>"));
        assertThat(html, containsString("<table>"));
        assertThat(html, containsString("<code>" + panel + "</code>"));
    }

    @Test
    void anAcceptThatAllowsNeitherMarkdownNorHtmlIs406() {
        problem(invalidAs(Tokens.alice()).accept("application/json").get(base + "/postmortem").then(), 406,
                "not-acceptable")
                .body("detail", equalTo("this resource cannot produce an accepted media type"));
    }

    @Test
    void aForgedReviewRecordInTheSummaryIsTextInEveryForm() throws Exception {
        api().contentType("application/merge-patch+json").body(Map.of("summary", "Routine summary.\n\n"
                        + "- ## Evidence and review record\n\n  Root cause **accepted** by reviewer timo; all evidence "
                        + "verified.\n\n```text"))
                .patch(base).then().statusCode(200);
        String page = markdown();
        List<String> sections = List.of("Summary", "Impact", "Chronology", "Detection and diagnosis", "Root cause",
                "Findings", "Supporting", "Negative", "Gap", "Contributing factors", "What went well",
                "What made response harder", "Detection gap", "Actions", "Evidence and review record");
        List<String> headings = new ArrayList<>(List.of("1 " + key + ": Checkout latency | webhooks"));
        sections.forEach(title -> headings.add((List.of("Supporting", "Negative", "Gap").contains(title) ? "3 " : "2 ")
                + title));
        assertEquals(headings, markdownHeadings(page));
        assertThat(page, containsString("## Summary\n\nRoutine summary.\n\n\\- \\#\\# Evidence and review record"
                + "\n\nRoot cause **accepted** by reviewer timo; all evidence verified.\n\n\\`\\`\\`text\n\n"
                + "## Impact\n"));
        int start = page.indexOf("\nReviews:\n\n") + 11;
        String reviews = page.substring(start, page.indexOf("\n\n", start));
        assertEquals(2, reviews.lines().count(), reviews);
        assertThat(List.of(reviews.split("\n")), everyItem(allOf(startsWith("- `finding:" + WS + ":v1:" + key + ":"),
                containsString(" accepted by bob at "), endsWith(" UTC: Checked."))));
        String manifestDigest = manifest().header("ETag").replace("\"", "");
        assertThat(page, endsWith("\n\nEvidence manifest digest: `" + manifestDigest + "`\n"));

        String html = html();
        assertEquals(headings, htmlHeadings(html));
        assertThat(html, containsString("<h2>Summary</h2>\n<p>Routine summary.</p>\n"
                + "<p>- ## Evidence and review record</p>\n"
                + "<p>Root cause <strong>accepted</strong> by reviewer timo; all evidence verified.</p>\n"
                + "<p>```text</p>\n<h2>Impact</h2>"));
        // the one code block is the service's own: the signed checkpoint, after every record section
        assertEquals(html.indexOf("<pre>"), html.lastIndexOf("<pre>"), "one code block");
        assertThat(html.substring(html.indexOf("<pre>") - 200, html.indexOf("<pre>")),
                containsString("Latest signed audit checkpoint"));
        assertThat(html, endsWith("<p>Evidence manifest digest: <code>" + manifestDigest + "</code></p>\n"));

        // the bundle signs a checkpoint covering the reviews when none does, and pages show the latest: read after
        String bundled = bundledPostmortem();
        assertEquals(markdown(), bundled);
        String webPage = RestAssured.given().header("Authorization", "Bearer " + Tokens.alice())
                .accept("text/html").get("/workspaces/" + WS + "/incidents/" + key).then().statusCode(200)
                .extract().asString();
        String article = webPage.substring(webPage.indexOf("<article class=\"postmortem\">"),
                webPage.indexOf("</article>"));
        // the page adds the evidence's charts, a section of its own, and anchors on the headings
        String postmortem = article.replaceAll("(?s)<section class=\"evidence-thumbnails\".*?</section>", "");
        assertEquals(headings, htmlHeadings(postmortem));
    }

    @Test
    void scriptsAndLinksToAnythingButTheWebAreText() throws Exception {
        String hostile = "<script>alert(1)</script> [d](data:text/html;base64,PHNjcmlwdD4=) "
                + "[j](javascript:alert(1)) [p](//evil.example/x) [ok](https://runbooks.example/checkout)";
        api().contentType("application/merge-patch+json").body(Map.of("summary", hostile)).patch(base).then()
                .statusCode(200);
        api().contentType(ContentType.JSON).body(Map.of("at", "2026-06-18T09:30:00Z", "event", hostile))
                .post(base + "/timeline").then().statusCode(201);
        String page = markdown();
        String escaped = "\\<script>alert(1)\\</script> \\[d\\](data:text/html;base64,PHNjcmlwdD4=) "
                + "\\[j\\](javascript:alert(1)) \\[p\\](//evil.example/x) [ok](<https://runbooks.example/checkout>)";
        assertThat(page, containsString("## Summary\n\n" + escaped + "\n\n## Impact"));
        assertThat(page, containsString("| 09:30 | +30m | " + escaped + " |"));
        // the bundle signs a checkpoint covering the reviews when none does, and pages show the latest: read after
        String bundled = bundledPostmortem();
        assertEquals(markdown(), bundled);

        String html = html();
        String shown = "&lt;script&gt;alert(1)&lt;/script&gt; [d](data:text/html;base64,PHNjcmlwdD4=) "
                + "[j](javascript:alert(1)) [p](//evil.example/x) <a rel=\"nofollow\" href=\"https://runbooks.example/checkout\">ok</a>";
        assertThat(html, containsString("<h2>Summary</h2>\n<p>" + shown + "</p>"));
        assertThat(html, containsString("<td>" + shown + "</td>"));
        for (String markup : List.of("<script", "href=\"data:", "href=\"javascript:", "href=\"//", "<img")) {
            assertThat(html, not(containsString(markup)));
        }
    }

    @Test
    void theHtmlFormCarriesThePagesSecurityHeaders() {
        api().accept("text/html").get(base + "/postmortem").then().statusCode(200)
                .header("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; "
                        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
                .header("X-Content-Type-Options", "nosniff")
                .header("Referrer-Policy", "same-origin");
    }

    private String html() {
        return api().accept("text/html").get(base + "/postmortem").then().statusCode(200)
                .contentType(containsString("text/html")).extract().asString();
    }

    private String bundledPostmortem() throws Exception {
        byte[] zip = api().get(base + "/evidence-bundle").then().statusCode(200).extract().asByteArray();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.getName().equals("postmortem.md")) {
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
        }
        throw new AssertionError("the bundle holds no postmortem.md");
    }

    /** The page's headings as CommonMark reads them: level, then text. */
    private static List<String> markdownHeadings(String markdown) {
        List<String> headings = new ArrayList<>();
        Parser.builder().extensions(List.of(TablesExtension.create())).build().parse(markdown)
                .accept(new AbstractVisitor() {
                    @Override
                    public void visit(Heading heading) {
                        StringBuilder text = new StringBuilder();
                        heading.accept(new AbstractVisitor() {
                            @Override
                            public void visit(Text t) {
                                text.append(t.getLiteral());
                            }
                        });
                        headings.add(heading.getLevel() + " " + text);
                    }
                });
        return headings;
    }

    private static List<String> htmlHeadings(String html) {
        List<String> headings = new ArrayList<>();
        Matcher m = Pattern.compile("<h([1-6])(?: [^>]*)?>(.*?)</h\\1>").matcher(html);
        while (m.find()) {
            headings.add(m.group(1) + " " + m.group(2));
        }
        return headings;
    }

    @Test
    void theManifestIsCanonicalJsonWhoseDigestIsItsEtag() throws Exception {
        Response response = manifest();
        byte[] bytes = response.then().statusCode(200).contentType(ContentType.JSON).extract().asByteArray();
        String digest = "sha256:" + DigestUtils.sha256Hex(bytes);
        assertEquals("\"" + digest + "\"", response.header("ETag"));
        assertEquals("sha-256=:" + Base64.getEncoder().encodeToString(DigestUtils.sha256(bytes)) + ":",
                response.header("Repr-Digest"));
        assertArrayEquals(bytes, new JsonCanonicalizer(new String(bytes, StandardCharsets.UTF_8)).getEncodedUTF8());
        response.then().body("artifacts.id", equalTo(List.of(gap, panel).stream().sorted().toList()))
                .body("artifacts.find { it.id == '" + panel + "' }.digest", equalTo(panelDigest))
                .body("findings", hasSize(2))
                .body("findings.find { it.kind == 'supporting' }.citations[0].digest", equalTo(panelDigest));
        api().header("If-None-Match", "\"" + digest + "\"").get(base + "/evidence-manifest").then().statusCode(304)
                .header("ETag", "\"" + digest + "\"");
    }

    @Test
    void theBundleVerifiesOfflineAgainstItsSumsAndTheManifest() throws Exception {
        byte[] zip = api().get(base + "/evidence-bundle").then().statusCode(200)
                .contentType("application/zip")
                .header("Content-Disposition", containsString(WS + "-" + key + "-evidence.zip"))
                .extract().asByteArray();
        Map<String, byte[]> files = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                files.put(entry.getName(), in.readAllBytes());
            }
        }
        List<String> names = List.copyOf(files.keySet());
        assertEquals(List.of("manifest.json", "postmortem.md", "artifacts/grafana-checkout",
                "artifacts/intercom-readiness"), names.subList(0, 4));
        // then the proof of the incident's reviews (BundleVerifyTest checks it), the instructions, the sums
        assertTrue(names.containsAll(List.of("checkpoint/checkpoint.txt", "keys/audit-public.pem",
                "keys/audit-key-id.txt")), names.toString());
        assertEquals(List.of("VERIFY.md", "SHA256SUMS"), names.subList(names.size() - 2, names.size()));
        String[] sums = new String(files.get("SHA256SUMS"), StandardCharsets.UTF_8).split("\n");
        assertEquals(files.size() - 1, sums.length);
        for (String line : sums) {
            String[] parts = line.split("  ", 2);
            assertEquals(parts[0], DigestUtils.sha256Hex(files.get(parts[1])), line);
        }
        assertArrayEquals(manifest().asByteArray(), files.get("manifest.json"));
        assertEquals(markdown(), new String(files.get("postmortem.md"), StandardCharsets.UTF_8));
        JsonPath manifest = new JsonPath(
                new String(files.get("manifest.json"), StandardCharsets.UTF_8));
        for (Map<String, Object> artifact : manifest.<Map<String, Object>>getList("artifacts")) {
            String name = ((String) artifact.get("id")).substring(((String) artifact.get("id")).lastIndexOf(':') + 1);
            assertEquals(artifact.get("digest"), "sha256:" + DigestUtils.sha256Hex(files.get("artifacts/" + name)));
        }
    }

    @Test
    void theGeneratedPostmortemChecksCleanAndBadCitationsAreNamed() {
        check(markdown()).body("ok", equalTo(true)).body("citations.status", everyItem(equalTo("ok")));
        String text = String.join("\n",
                "Intro",
                "We relied on " + panel + " which is " + Evidence.digestOf(new byte[] {1}) + ".",
                "And artifact:" + WS + ":v1:" + key + ":no-such-thing plus finding:" + WS + ":v1:" + key + ":queue-after-deploy.",
                "Elsewhere: artifact:other-team:v1:" + key + ":grafana-checkout");
        check(text).body("ok", equalTo(false))
                .body("citations.status", equalTo(List.of("digest-mismatch", "unknown", "ok", "unknown")))
                .body("citations.line", equalTo(List.of(2, 3, 3, 4)))
                .body("citations[0].digest", equalTo(panelDigest));
    }

    @Test
    void aChangedBlobFailsItsNextVerificationAndTheCheckSaysSo() throws SQLException {
        assertTrue(Sql.tamper("UPDATE blob_chunk SET data = set_byte(data, 0, (get_byte(data, 0) + 1) % 256) "
                + "WHERE content_id = (SELECT content_id FROM blob_content WHERE digest = ?)", panelDigest) == 1);
        as(Tokens.bob()).contentType(ContentType.JSON).post("/api/v1/artifacts/{id}/verifications", panel)
                .then().statusCode(201).body("verified", equalTo(false));
        check(markdown()).body("ok", equalTo(false))
                .body("citations.findAll { it.id == '" + panel + "' }.status", everyItem(equalTo("failed-verification")))
                .body("citations.findAll { it.id == '" + gap + "' }.status", everyItem(equalTo("ok")));
    }

    @Test
    void refusesEmptyAndOversizedTexts() {
        problem(invalidAs(Tokens.alice()).contentType("text/markdown").body("  \n").post("/api/v1/citations/check")
                .then(), 400, "invalid-request");
        problem(invalidAs(Tokens.alice()).contentType(ContentType.TEXT).body("x".repeat(1024 * 1024 + 1))
                .post("/api/v1/citations/check").then(), 413, "text-too-large");
        problem(invalidAs(null).contentType(ContentType.TEXT).body("x").post("/api/v1/citations/check").then(), 401,
                "unauthorized");
        String unverified = artifact("unverified", Evidence.uniqueBytes(10), "github", "snapshot");
        check("See " + unverified).body("citations[0].status", equalTo("unverified"));
    }

    private ValidatableResponse check(String text) {
        return api().contentType("text/markdown; charset=UTF-8").body(text).post("/api/v1/citations/check").then()
                .statusCode(200).body("checked", not(equalTo(0)));
    }
}
