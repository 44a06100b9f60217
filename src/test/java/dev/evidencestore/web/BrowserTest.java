package dev.evidencestore.web;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.Pdf;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.print.PrintOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The pages in a real browser: headless Chromium from Debian's chromium and chromium-driver packages, driven by
 * Selenium with the driver given explicitly, so that Selenium Manager never tries to download one. Without the
 * browser the test is skipped, unless EVIDENCE_REQUIRE_BROWSER=1 (as in CI) makes that a failure.
 */
@QuarkusTest
class BrowserTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target/screenshots");

    private static WebDriver driver;

    @TestHTTPResource("/")
    URL root;

    @BeforeAll
    static void startBrowser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            String missing = "headless Chromium needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (Debian packages chromium and chromium-driver)";
            if ("1".equals(System.getenv("EVIDENCE_REQUIRE_BROWSER"))) {
                fail(missing);
            }
            Assumptions.abort(missing);
        }
        System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, CHROMEDRIVER.toString());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-dev-shm-usage", "--window-size=1280,1600");
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stopBrowser() {
        if (driver != null) {
            driver.quit();
            driver = null;
        }
    }

    private String url(String path) {
        String base = root.toString();
        return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path;
    }

    @Test
    void theIncidentPageRendersAndACitationLeadsToItsArtifact() throws IOException {
        WebFixtures.Investigation demo = WebFixtures.demo();
        driver.manage().window().setSize(new Dimension(1280, 1600));
        driver.get(url(demo.page()));
        assertTrue(driver.getTitle().startsWith(demo.key() + ": " + demo.title()), driver.getTitle());
        WebElement article = driver.findElement(By.cssSelector("article.postmortem"));
        assertTrue(article.getText().contains(demo.title()));
        save("incident.png", driver);

        WebElement citation = article.findElement(By.cssSelector("a.cite[href^='/artifacts/']"));
        String cited = citation.getText();
        assertTrue(cited.startsWith("artifact:" + WebFixtures.PUBLIC + ":v1:" + demo.key() + ":"), cited);
        citation.click();
        new WebDriverWait(driver, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/artifacts/"));

        assertEquals(url("/artifacts/" + cited), driver.getCurrentUrl());
        String digest = driver.findElement(By.id("digest")).getText();
        assertTrue(digest.matches("sha256:[0-9a-f]{64}"), digest);
        if (cited.equals(demo.artifactId())) {
            assertEquals(demo.digest(), digest);
        }
        assertTrue(driver.findElement(By.tagName("h1")).getText().contains(cited));
        save("artifact.png", driver);
    }

    @Test
    void onAPhoneThePagesDoNotScrollSideways() throws IOException {
        WebFixtures.Investigation demo = WebFixtures.demo();
        driver.manage().window().setSize(new Dimension(390, 844));
        try {
            for (String path : new String[] {demo.page(), demo.artifactPage(), "/"}) {
                driver.get(url(path));
                // the page needs no script; the test reads the layout with one
                Object wider = ((JavascriptExecutor) driver).executeScript(
                        "return document.documentElement.scrollWidth - document.documentElement.clientWidth;");
                assertEquals(0L, ((Number) wider).longValue(), path + " is wider than the phone's screen");
            }
            driver.get(url(demo.page()));
            save("incident-phone.png", driver);
        } finally {
            driver.manage().window().setSize(new Dimension(1280, 1600));
        }
    }

    @Test
    void theIncidentPagePrints() throws IOException {
        WebFixtures.Investigation demo = WebFixtures.demo();
        driver.get(url(demo.page()));
        Pdf pdf = ((org.openqa.selenium.PrintsPage) driver).print(new PrintOptions());
        byte[] bytes = Base64.getDecoder().decode(pdf.getContent());
        assertTrue(bytes.length > 1000 && new String(bytes, 0, 5).equals("%PDF-"), "a PDF");
        Files.createDirectories(SCREENSHOTS);
        Files.write(SCREENSHOTS.resolve("incident.pdf"), bytes);
    }

    private static void save(String name, WebDriver driver) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        File shot = ((org.openqa.selenium.TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), SCREENSHOTS.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertTrue(Files.size(SCREENSHOTS.resolve(name)) > 1000, name + " holds a picture");
    }
}
