package dev.evidencestore.web;

import dev.evidencestore.support.KeycloakServer;
import dev.evidencestore.support.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A person signs in to the pages in a real browser through Keycloak's own login form, sees an incident of a
 * workspace that is not public, and signs out again: headless Chromium as {@link BrowserTest} drives it, against
 * the sign-in profile's Keycloak.
 */
@QuarkusTest
@TestProfile(Profiles.SignIn.class)
class SignInBrowserTest {

    private static WebDriver driver;

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

    private static String url(String path) {
        return "http://localhost:" + RestAssured.port + path;
    }

    @Test
    void aPersonSignsInThroughKeycloakSeesAWorkspaceThatIsNotPublicAndSignsOut() throws IOException {
        SignInTest.incidents();
        String incident = SignInTest.platformIncident();
        driver.get(url(incident));
        assertEquals("Authentication required", driver.findElement(By.tagName("h1")).getText());

        driver.findElement(By.linkText("Sign in")).click();
        WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(20));
        wait.until(ExpectedConditions.urlContains(KeycloakServer.issuer() + "/"));
        driver.findElement(By.id("username")).sendKeys("alice");
        driver.findElement(By.id("password")).sendKeys(KeycloakServer.password("alice"));
        save("sign-in-keycloak.png");
        driver.findElement(By.id("kc-login")).click();

        wait.until(ExpectedConditions.urlToBe(url(incident)));
        assertTrue(driver.findElement(By.tagName("h1")).getText().endsWith(": Cluster autoscaler stalled"),
                driver.findElement(By.tagName("h1")).getText());
        assertEquals("Signed in as alice · Sign out", driver.findElement(By.cssSelector("header .session")).getText());
        save("sign-in-incident.png");

        driver.findElement(By.linkText("Sign out")).click();
        // Keycloak's logout sends the browser home with the state quarkus-oidc gave it for the way back
        wait.until(ExpectedConditions.urlMatches("^" + Pattern.quote(url("/")) + "\\?state=[0-9a-f-]+$"));
        assertEquals("Sign in", driver.findElement(By.cssSelector("header .session")).getText());
        driver.get(url(incident));
        assertEquals("Authentication required", driver.findElement(By.tagName("h1")).getText());
    }

    private static void save(String name) throws IOException {
        Files.createDirectories(BrowserTest.SCREENSHOTS);
        File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
        Files.copy(shot.toPath(), BrowserTest.SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }
}
