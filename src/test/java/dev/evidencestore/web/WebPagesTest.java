package dev.evidencestore.web;

import dev.evidencestore.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.evidencestore.web.WebFixtures.browser;
import static dev.evidencestore.web.WebFixtures.demo;
import static dev.evidencestore.web.WebFixtures.hidden;
import static dev.evidencestore.web.WebFixtures.hostile;
import static org.hamcrest.Matchers.allOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The server-rendered pages over HTTP: what they show, whom they show it to, and that nothing leaks into markup. */
@QuarkusTest
class WebPagesTest {

    private static final String HTML = "text/html";

    private static String page(Response response) {
        response.then().statusCode(200).contentType(startsWith(HTML))
                .header("Content-Security-Policy", containsString("default-src 'none'"))
                .header("X-Content-Type-Options", "nosniff");
        return response.asString();
    }

    @Test
    void theStartPageListsPublicWorkspacesToAnyoneAndTheOthersToTokensHoldingThem() {
        WebFixtures.Investigation demo = demo();
        WebFixtures.Investigation hidden = hidden();

        String anonymous = page(browser().get("/"));
        assertTrue(anonymous.contains("<meta name=\"viewport\""), "readable on a phone");
        assertTrue(anonymous.contains("href=\"/style.css\""));
        assertTrue(anonymous.contains("href=\"" + demo.page() + "\""), "the public incident is listed");
        assertTrue(anonymous.contains(demo.title()));
        assertFalse(anonymous.contains(WebFixtures.PRIVATE), "no other workspace shows without a token");
        assertFalse(anonymous.contains(hidden.key()));

        String alice = page(browser(Tokens.alice()).get("/"));
        assertTrue(alice.contains("href=\"" + demo.page() + "\""));
        assertTrue(alice.contains("href=\"" + hidden.page() + "\""), "a token for every workspace sees them all");

        String limited = page(browser(Tokens.of("lena", Set.of("reader"), List.of("web-elsewhere"))).get("/"));
        assertTrue(limited.contains(demo.key()), "public workspaces show to every token");
        assertFalse(limited.contains(WebFixtures.PRIVATE), "a limited token sees only its own workspaces");

        String holder = page(browser(Tokens.of("hana", Set.of("reader"), List.of(WebFixtures.PRIVATE))).get("/"));
        assertTrue(holder.contains(hidden.key()));

        browser(Tokens.of("eve", Set.of("auditor"), null)).get("/").then().statusCode(403);
        browser(Tokens.badSignature()).get("/").then().statusCode(401).contentType(startsWith(HTML));
    }

    @Test
    void incidentsAreListedNewestFirstOnTheWorkspacePage() {
        WebFixtures.Investigation demo = demo();
        WebFixtures.Investigation hostile = hostile();
        String html = page(browser().get("/workspaces/" + WebFixtures.PUBLIC));
        int older = html.indexOf(demo.key());
        int newer = html.indexOf(hostile.key());
        assertTrue(older > 0 && newer > 0 && newer < older, "newest first");
        browser().get("/workspaces/" + WebFixtures.PUBLIC + "?cursor=not-a-cursor").then().statusCode(400)
                .contentType(startsWith(HTML));
    }

    @Test
    void theIncidentPageShowsThePostmortemWithEveryCitationLinked() {
        WebFixtures.Investigation demo = demo();
        String html = page(browser().get(demo.page()));
        assertTrue(html.contains("<article class=\"postmortem\">"));
        assertTrue(html.contains(demo.title()));
        assertTrue(html.contains("<a class=\"cite\" href=\"/artifacts/" + demo.artifactId() + "\"><code>"
                + demo.artifactId() + "</code></a>"), "artifact citations link to their page");
        assertTrue(html.contains("<a class=\"cite\" href=\"/artifacts/" + demo.gapArtifactId() + "\">"));
        assertTrue(html.contains("<a class=\"cite\" href=\"/findings/" + demo.findingId() + "\"><code>"),
                "finding citations link to their page");
        Matcher bare = Pattern.compile("(?<!\">)<code>(artifact|finding):").matcher(html);
        assertFalse(bare.find(), "no cited ID is left without a link");
    }

    @Test
    void theArtifactPageShowsEverythingAboutTheEvidence() {
        WebFixtures.Investigation demo = demo();
        String html = page(browser().get(demo.artifactPage()));
        assertTrue(html.contains(demo.artifactId()));
        assertTrue(html.contains("href=\"" + demo.page() + "\""), "links its incident");
        assertTrue(html.contains("<code>application/json</code>"));
        assertTrue(html.contains("grafana"));
        assertTrue(html.contains("snapshot"));
        assertTrue(html.contains("2026-06-18 10:20:00 UTC"), "captured at");
        assertTrue(html.contains("by alice"), "created by");
        assertTrue(html.contains("Checkout p95, worker saturation"));
        assertTrue(html.contains("&quot;query&quot; : &quot;histogram_quantile(0.95, checkout_latency)&quot;"),
                "capture JSON, pretty-printed");
        assertTrue(html.contains("<code class=\"digest\" id=\"digest\">" + demo.digest() + "</code>"));
        assertTrue(html.contains(demo.bytes().length + " bytes"));
        assertTrue(html.contains("<span class=\"ok\">verified</span>"), "verification history");
        assertTrue(html.contains("<td data-label=\"By\">bob</td>"));
        assertTrue(html.contains("href=\"/findings/" + demo.findingId() + "\""), "cited by the finding");
        assertTrue(html.contains("timeline:" + WebFixtures.PUBLIC + ":v1:" + demo.key() + ":1"), "and the timeline");
        String download = "/api/v1/artifacts/" + demo.artifactId() + "/content";
        assertTrue(html.contains("href=\"" + download + "\""), "download link");
        byte[] downloaded = RestAssured.given().urlEncodingEnabled(false).get(download).then().statusCode(200)
                .extract().asByteArray();
        assertArrayEquals(demo.bytes(), downloaded, "anyone downloads public evidence");
        assertTrue(command(html).endsWith("' && echo '" + demo.digest().substring("sha256:".length())
                + "  grafana-checkout' | sha256sum -c"));
    }

    @Test
    void theCheckCommandDownloadsAndVerifiesAsPrinted() throws Exception {
        assumeTrue(onPath("bash") && onPath("curl") && onPath("sha256sum"), "needs bash, curl and sha256sum");
        WebFixtures.Investigation demo = demo();
        // no public address is configured in tests: the command reads it from $EVIDENCE_STORE
        Map<String, String> address = Map.of("EVIDENCE_STORE", "http://localhost:" + RestAssured.port);
        String open = command(page(browser().get(demo.artifactPage())));
        assertFalse(open.contains("$TOKEN"), "public evidence needs no token");
        assertEquals("grafana-checkout: OK", run(open, address));

        WebFixtures.Investigation hidden = hidden();
        String guarded = command(page(browser(Tokens.alice()).get(hidden.artifactPage())));
        assertTrue(guarded.contains("-H \"Authorization: Bearer $TOKEN\""));
        Map<String, String> withToken = new HashMap<>(address);
        withToken.put("TOKEN", Tokens.alice());
        assertEquals("grafana-checkout: OK", run(guarded, withToken));
    }

    /** A command people paste must not name a host the client chose: the Host header never reaches it. */
    @Test
    void theCheckCommandNamesNoHostARequestSent() {
        String html = page(browser().header("Host", "evil.example").get(demo().artifactPage()));
        String command = command(html);
        assertFalse(command.contains("evil.example"), command);
        assertTrue(command.contains("\"${EVIDENCE_STORE:?set it to the address of the Evidence Store}\"'/api/v1/"),
                command);
        assertTrue(html.contains("Set <code>EVIDENCE_STORE</code> to this service's address"), "the page says so");
    }

    @Test
    void theFindingPageShowsTheStatementAndItsEvidence() {
        WebFixtures.Investigation demo = demo();
        String html = page(browser().get("/findings/" + demo.findingId()));
        assertTrue(html.contains("Queue depth and retry rate rose right after the deployment."));
        assertTrue(html.contains("href=\"/artifacts/" + demo.artifactId() + "\""));
        assertTrue(html.contains(demo.digest()));
        assertTrue(html.contains("proposed"));
    }

    @Test
    void everyTextIsEscaped() {
        WebFixtures.Investigation hostile = hostile();
        List<String> pages = List.of("/", "/workspaces/" + WebFixtures.PUBLIC, hostile.page(), hostile.artifactPage(),
                "/findings/" + hostile.findingId());
        List<String> failures = new ArrayList<>();
        for (String path : pages) {
            String html = page(browser().get(path));
            if (html.contains("<script") || html.contains("<img")) {
                failures.add(path + " carries markup from record text");
            }
            if (!html.contains("&lt;script&gt;alert(")) {
                failures.add(path + " does not show the text escaped");
            }
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void otherWorkspacesAreHiddenAsInTheApi() {
        WebFixtures.Investigation hidden = hidden();
        String otto = Tokens.of("otto", Tokens.ALL_ROLES, List.of("web-elsewhere"));
        for (String path : List.of(hidden.page(), hidden.artifactPage(), "/findings/" + hidden.findingId(),
                "/workspaces/" + WebFixtures.PRIVATE)) {
            browser().get(path).then().statusCode(401).header("WWW-Authenticate", "Bearer")
                    .contentType(startsWith(HTML)).body(containsString("sign-in"));
            browser(otto).get(path).then().statusCode(404).contentType(startsWith(HTML))
                    .body(not(containsString(hidden.title())));
            RestAssured.given().urlEncodingEnabled(false).header("Authorization", "Bearer " + otto).get(path).then()
                    .statusCode(404).contentType("application/problem+json")
                    .body("type", equalTo("https://evidence-store.dev/problems/not-found"));
            page(browser(Tokens.of("hana", Set.of("reader"), List.of(WebFixtures.PRIVATE))).get(path));
        }
    }

    @Test
    void badRequestsGetAPageAndNeverAnInternalError() {
        WebFixtures.Investigation demo = demo();
        String alice = Tokens.alice();
        browser(alice).get("/workspaces/" + WebFixtures.PUBLIC + "/incidents/NO-1").then().statusCode(404)
                .contentType(startsWith(HTML)).body(allOf(containsString("<h1>"), not(containsString("Exception"))));
        browser(alice).get("/workspaces/" + WebFixtures.PUBLIC + "/incidents/not%20a%20key").then().statusCode(400)
                .contentType(startsWith(HTML));
        browser(alice).get("/workspaces/Bad_Slug/incidents/" + demo.key()).then().statusCode(400);
        browser(alice).get("/artifacts/not-an-id").then().statusCode(400).contentType(startsWith(HTML));
        browser(alice).get("/artifacts/artifact:" + WebFixtures.PUBLIC + ":v1:" + demo.key() + ":nothing-here")
                .then().statusCode(404);
        browser(alice).get("/findings/finding:" + WebFixtures.PUBLIC + ":v1:" + demo.key() + ":nothing-here")
                .then().statusCode(404);
        browser().get("/no-such-page").then().statusCode(404).contentType(startsWith(HTML));
        browser().post(demo.page()).then().statusCode(405);
        browser(alice).post(demo.page()).then().statusCode(405);
    }

    @Test
    void theStyleSheetIsServedAndPrintable() {
        String css = RestAssured.get("/style.css").then().statusCode(200).contentType(startsWith("text/css"))
                .extract().asString();
        assertTrue(css.contains("@media print"));
        assertTrue(css.contains("overflow-x: auto"), "tables scroll sideways on phones");
    }

    private static String command(String html) {
        Matcher m = Pattern.compile("<code id=\"check-command\">([^<]*)</code>").matcher(html);
        assertTrue(m.find(), "the page shows the check command");
        return m.group(1).replace("&quot;", "\"").replace("&#39;", "'").replace("&#x27;", "'").replace("&lt;", "<")
                .replace("&gt;", ">").replace("&amp;", "&");
    }

    private static String run(String command, Map<String, String> env) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(Path.of("target/web-check")).toAbsolutePath();
        Files.deleteIfExists(dir.resolve("grafana-checkout"));
        ProcessBuilder process = new ProcessBuilder("bash", "-c", command).directory(dir.toFile())
                .redirectErrorStream(true);
        process.environment().putAll(env);
        Process running = process.start();
        assertTrue(running.waitFor(60, TimeUnit.SECONDS), "the command finishes");
        String output = new String(running.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(0, running.exitValue(), command + " printed " + output);
        return output;
    }

    private static boolean onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, program))) {
                return true;
            }
        }
        return false;
    }
}
