package dev.evidencestore.web;

import dev.evidencestore.support.Profiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.evidencestore.web.WebFixtures.browser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** With {@code evidence.http.public-url} set, the pages' commands download from it, whatever Host a request sent. */
@QuarkusTest
@TestProfile(Profiles.PublicUrlAndSingleSlots.class)
class PublicUrlTest {

    @Test
    void theCheckCommandDownloadsFromTheConfiguredAddress() {
        WebFixtures.Investigation demo = WebFixtures.demo();
        String html = browser().header("Host", "evil.example").get(demo.artifactPage()).then().statusCode(200)
                .extract().asString();
        Matcher command = Pattern.compile("<code id=\"check-command\">([^<]*)</code>").matcher(html);
        assertTrue(command.find(), "the page shows the check command");
        String line = command.group(1).replace("&#39;", "'").replace("&#x27;", "'").replace("&amp;", "&");
        assertTrue(line.startsWith("curl -fsS -o grafana-checkout 'https://evidence.example.com/api/v1/artifacts/"
                + demo.artifactId() + "/content' && echo '"), line);
        assertFalse(line.contains("evil.example"), line);
        assertFalse(html.contains("Set <code>EVIDENCE_STORE</code>"), "no variable to set");
        assertEquals(-1, line.indexOf("$EVIDENCE_STORE"));
    }
}
