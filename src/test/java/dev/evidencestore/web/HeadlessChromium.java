package dev.evidencestore.web;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Debian's headless Chromium (packages chromium and chromium-driver) for the browser tests, with the driver given
 * explicitly so that Selenium Manager never tries to download one. Without it a test is skipped, unless
 * EVIDENCE_REQUIRE_BROWSER=1 (as in CI) makes that a failure.
 */
final class HeadlessChromium {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final boolean REQUIRED = "1".equals(System.getenv("EVIDENCE_REQUIRE_BROWSER"));

    private HeadlessChromium() {
    }

    static ChromeDriver start() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            skip("headless Chromium needs " + CHROMIUM + " and " + CHROMEDRIVER
                    + " (Debian packages chromium and chromium-driver)");
        }
        System.setProperty(ChromeDriverService.CHROME_DRIVER_EXE_PROPERTY, CHROMEDRIVER.toString());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1280,1000");
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        return driver;
    }

    /** Skips the test, or fails it where the browser is required. */
    static void skip(String why) {
        if (REQUIRED) {
            fail(why);
        }
        Assumptions.abort(why);
    }
}
