package dev.evidencestore.web;

import dev.evidencestore.support.Evidence;
import dev.evidencestore.support.Profiles;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Pdf;
import org.openqa.selenium.PrintsPage;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.print.PageSize;
import org.openqa.selenium.print.PrintOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.evidencestore.support.Api.api;
import static dev.evidencestore.support.Api.json;
import static org.hamcrest.Matchers.oneOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pages of the demo loaded at startup in a real browser ({@link HeadlessChromium}). Every page and every kind of preview is photographed at desktop and phone width into
 * target/screenshots, checked for sideways scrolling on the phone and by axe-core (tools/node_modules) for serious
 * and critical accessibility violations. Without the browser or axe-core the test is skipped, unless
 * EVIDENCE_REQUIRE_BROWSER=1 (as in CI) makes that a failure.
 */
@QuarkusTest
class BrowserTest {

    static final Path AXE = Path.of("tools/node_modules/axe-core/axe.min.js");
    static final Path SCREENSHOTS = Path.of("target/screenshots");
    static final Dimension DESKTOP = new Dimension(1280, 1000);
    static final Dimension PHONE = new Dimension(390, 844);

    private static final String WS = Profiles.DEMO_WORKSPACE;
    private static final String INCIDENT = "/workspaces/" + WS + "/incidents/INC-1423";
    private static final String ARTIFACT = "/artifacts/artifact:" + WS + ":v1:INC-1423:";

    private static ChromeDriver driver;
    /** Every page by the name its screenshots get: the demo's and one artifact of each generic preview. */
    private static Map<String, String> pages;

    @TestHTTPResource("/")
    URL root;

    @BeforeAll
    static void startBrowser() {
        driver = HeadlessChromium.start();
    }

    @AfterAll
    static void stopBrowser() {
        if (driver != null) {
            driver.quit();
            driver = null;
        }
    }

    /**
     * The demo's pages, and an artifact for each generic preview: JSON, text, an image, and bytes of no preview;
     * made by the first test that needs them, once the service answers.
     */
    private static synchronized Map<String, String> pages() {
        if (pages == null) {
            pages = makePages();
        }
        return pages;
    }

    private static Map<String, String> makePages() {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("home", "/");
        all.put("workspace", "/workspaces/" + WS);
        all.put("incident", INCIDENT);
        all.put("finding", "/findings/finding:" + WS + ":v1:INC-1423:queue-after-deploy");
        for (String name : List.of("grafana-checkout", "github-deployment", "kubernetes-workers",
                "intercom-readiness")) {
            all.put("artifact-" + name, ARTIFACT + name);
        }
        String key = Evidence.uniqueKey();
        json(Map.of("key", key, "title", "Generic previews", "severity", "SEV-3", "status", "investigating"))
                .post("/api/v1/workspaces/{ws}/incidents", WS).then().statusCode(201);
        all.put("preview-json", artifact(key, "settings", "application/json",
                Evidence.utf8("{\"run\": \"" + key + "\", \"limits\": {\"cpu\": \"2\", \"memory\": \"2Gi\"}}")));
        all.put("preview-text", artifact(key, "worker-log", "text/plain", Evidence.utf8(
                "09:01:02 lease held 31.2 s for batch 8812 (500 deliveries)\n09:01:03 delivery timeout, requeue batch "
                        + "8812\n09:01:05 lease held 33.0 s for batch 8813 (500 deliveries), run " + key + "\n")));
        all.put("preview-image", artifact(key, "panel-screenshot", "image/png", png()));
        all.put("preview-none", artifact(key, "heap-dump", "application/octet-stream",
                new byte[] {0x4a, 0x41, 0x56, 0x41, 0x00, 0x01, 0x02, (byte) key.hashCode()}));
        return all;
    }

    private static String artifact(String key, String name, String mediaType, byte[] bytes) {
        String digest = api().contentType(ContentType.BINARY).body(bytes).post("/api/v1/blobs")
                .then().statusCode(oneOf(200, 201)).extract().path("digest");
        Map<String, Object> body = new HashMap<>();
        body.put("name", name);
        body.put("digest", digest);
        body.put("mediaType", mediaType);
        body.put("source", "shell");
        body.put("kind", "snapshot");
        body.put("capturedAt", "2026-06-18T10:20:00Z");
        body.put("description", "A `" + name + "` kept to show its preview.");
        String id = json(body).post("/api/v1/workspaces/{ws}/incidents/{key}/artifacts", WS, key)
                .then().statusCode(201).extract().path("id");
        return "/artifacts/" + id;
    }

    /** A 2×2 PNG. */
    private static byte[] png() {
        BufferedImage image = new BufferedImage(2, 2, BufferedImage.TYPE_INT_RGB);
        image.setRGB(0, 0, 0xc4162a);
        image.setRGB(1, 1, 0x1f60c4);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "png", bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private String url(String path) {
        String base = root.toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    }

    @Test
    void theIncidentPageRendersAndACitationLeadsToItsArtifact() {
        driver.manage().window().setSize(DESKTOP);
        driver.get(url(INCIDENT));
        assertTrue(driver.getTitle().startsWith("INC-1423: Checkout latency and webhook delays"), driver.getTitle());
        WebElement citation = driver.findElement(By.cssSelector("article.postmortem a.cite[href^='/artifacts/']"));
        String cited = citation.getText();
        citation.click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/artifacts/"));
        assertEquals(url("/artifacts/" + cited), driver.getCurrentUrl());
        assertTrue(driver.findElement(By.id("digest")).getText().matches("sha256:[0-9a-f]{64}"));
    }

    @Test
    void theGrafanaChartsDrawEverySeriesAndMarkTheTimelineAtItsTimes() {
        driver.manage().window().setSize(DESKTOP);
        driver.get(url(ARTIFACT + "grafana-checkout"));
        List<WebElement> charts = driver.findElements(By.cssSelector("figure.chart"));
        assertEquals(4, charts.size());
        for (WebElement chart : charts) {
            int legend = chart.findElements(By.cssSelector("table.legend tbody tr")).size();
            assertEquals(legend, chart.findElements(By.cssSelector("svg path.series")).size(),
                    "one line per series in the legend");
            assertTrue(chart.findElement(By.cssSelector("svg")).getSize().getWidth() > 600, "drawn full width");
        }
        WebElement latency = charts.get(0);
        // the alert fired at 09:00: its numbered marker stands where the axis writes 09:00
        Object offset = driver.executeScript("""
                const svg = arguments[0].querySelector('svg');
                const tick = [...svg.querySelectorAll('text')].find(t => t.textContent === '09:00');
                const entry = [...svg.querySelectorAll('g.entry')].find(g => g.querySelector('title')
                    .textContent.includes('09:00 UTC'));
                return Math.abs(tick.getBBox().x + tick.getBBox().width / 2 - entry.querySelector('line')
                    .x1.baseVal.value);""", latency);
        assertTrue(((Number) offset).doubleValue() < 1.0, "marker and tick " + offset + " apart");
        assertEquals(3, latency.findElements(By.cssSelector("svg line.annotation")).size());
        assertEquals(1, latency.findElements(By.cssSelector("svg rect.impact")).size());
    }

    @Test
    void theDiffShowsItsAddedAndRemovedLines() {
        driver.manage().window().setSize(DESKTOP);
        driver.get(url(ARTIFACT + "github-deployment"));
        assertEquals(5, driver.findElements(By.cssSelector("table.diff tr.added")).size());
        List<WebElement> removed = driver.findElements(By.cssSelector("table.diff tr.removed"));
        assertEquals(1, removed.size());
        assertEquals("7 -    batch_size: 50", removed.get(0).getText().strip());
        String background = removed.get(0).findElement(By.cssSelector("td:last-child")).getCssValue("background-color");
        assertEquals("rgba(255, 235, 233, 1)", background, "a removed line is red");
    }

    @Test
    void theKubernetesPageHasARowPerPodAndItsSeriesCharts() {
        driver.manage().window().setSize(DESKTOP);
        driver.get(url(ARTIFACT + "kubernetes-workers"));
        assertEquals(24, driver.findElements(By.cssSelector("table.pods tbody tr")).size());
        assertEquals(5, driver.findElements(By.cssSelector("figure.chart")).size());
    }

    /**
     * Every page at both widths, each loaded once: photographed, checked for sideways scrolling on the phone, and
     * checked by axe-core for serious and critical violations.
     */
    @Test
    void everyPageIsPhotographedFitsThePhoneAndPassesAxeAtBothWidths() throws IOException {
        if (!Files.isReadable(AXE)) {
            HeadlessChromium.skip("the accessibility check needs axe-core: npm ci in tools/ (" + AXE + ")");
        }
        String axe = Files.readString(AXE, StandardCharsets.UTF_8);
        List<String> problems = new ArrayList<>();
        for (Dimension size : List.of(DESKTOP, PHONE)) {
            driver.manage().window().setSize(size);
            for (Map.Entry<String, String> page : pages().entrySet()) {
                String where = page.getKey() + " at " + size.getWidth() + " px";
                driver.get(url(page.getValue()));
                save(page.getKey() + (size == PHONE ? "-phone" : "") + ".png");
                // the pages need no script; the test reads their layout with one
                Object overflow = driver.executeScript(
                        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
                if (((Number) overflow).longValue() != 0) {
                    problems.add(where + " scrolls sideways by " + overflow + " px");
                }
                // DevTools runs the script beside the page, which the pages' policy would not allow
                Object found = driver.executeAsyncScript(axe + """
                        ;const done = arguments[arguments.length - 1];
                        axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations
                            .filter(v => v.impact === 'serious' || v.impact === 'critical')
                            .map(v => v.impact + ' ' + v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))));
                        """);
                for (Object violation : (List<?>) found) {
                    problems.add(where + ": " + violation);
                }
            }
        }
        driver.manage().window().setSize(DESKTOP);
        driver.get(url(pages().get("preview-image")));
        Object width = driver.executeScript("return document.querySelector('img.evidence-image').naturalWidth;");
        assertEquals(2L, ((Number) width).longValue(), "the image loads from the content URL");
        assertEquals(List.of(), problems);
    }

    @Test
    void theIncidentPagePrintsOnA4WithItsChartsAndNothingCutOff() throws IOException {
        driver.manage().window().setSize(DESKTOP);
        driver.get(url(INCIDENT));
        driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", "print"));
        try {
            // A4 is 210 mm wide; the browser's default print margins leave about 718 CSS pixels for the page
            driver.manage().window().setSize(new Dimension(718, 1000));
            Object overflow = driver.executeScript("""
                    return [...document.querySelectorAll('main *')].filter(e => {
                        const r = e.getBoundingClientRect(); return r.width > 0 && r.right > 718.5; })
                      .map(e => e.tagName + '.' + e.className).slice(0, 5);""");
            assertEquals(List.of(), overflow, "elements beyond the printed page's width");
            assertTrue(driver.findElements(By.cssSelector(".evidence-thumbnails svg")).size() > 0);
        } finally {
            driver.executeCdpCommand("Emulation.setEmulatedMedia", Map.of("media", ""));
            driver.manage().window().setSize(DESKTOP);
        }
        PrintOptions a4 = new PrintOptions();
        a4.setPageSize(new PageSize(29.7, 21.0));
        Pdf pdf = ((PrintsPage) driver).print(a4);
        byte[] bytes = Base64.getDecoder().decode(pdf.getContent());
        assertEquals("%PDF-", new String(bytes, 0, 5, StandardCharsets.US_ASCII));
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve("incident.pdf"), bytes);
    }

    /** The whole page, not only the window: the window is made as tall as the page first. */
    private static void save(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Dimension size = driver.manage().window().getSize();
        long height = ((Number) driver.executeScript("return document.documentElement.scrollHeight;")).longValue();
        driver.manage().window().setSize(new Dimension(size.getWidth(), (int) Math.min(height + 120, 12_000)));
        try {
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
            assertTrue(Files.size(SCREENSHOTS.resolve(name)) > 1000, name + " holds a picture");
        } finally {
            driver.manage().window().setSize(size);
        }
    }
}
