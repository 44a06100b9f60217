package dev.evidencestore.web;

import dev.evidencestore.domain.ArtifactId;
import dev.evidencestore.domain.Digest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The postmortem's citations become links, and nothing else does; the check command stays one safe shell line. */
class CitationLinksTest {

    private static final String ARTIFACT = "artifact:demo:v1:INC-1423:grafana-checkout";
    private static final String FINDING = "finding:demo:v1:INC-1423:queue-after-deploy";

    @Test
    void citedIdsLinkToTheirPages() {
        assertEquals("<li><a class=\"cite\" href=\"/artifacts/" + ARTIFACT + "\"><code>" + ARTIFACT + "</code></a> "
                        + "<code>sha256:abc</code> <a class=\"cite\" href=\"/findings/" + FINDING + "\"><code>" + FINDING
                        + "</code></a></li>",
                CitationLinks.link("<li><code>" + ARTIFACT + "</code> <code>sha256:abc</code> <code>" + FINDING
                        + "</code></li>"));
    }

    @Test
    void textThatIsNoIdAndCodeInsideLinksStayAsTheyAre() {
        String html = "<p><code>artifact:demo:v2:INC-1423:x</code> <code>artifact:Demo:v1:INC-1423:x</code> "
                + "<a href=\"https://example.org\"><code>" + ARTIFACT + "</code></a> <code>artifact:&lt;b&gt;</code> "
                + "<pre><code class=\"language-text\">" + ARTIFACT + "\n</code></pre></p>";
        assertEquals(html, CitationLinks.link(html));
    }

    @Test
    void theCheckCommandQuotesTheUrlAndNamesTheFile() {
        Digest digest = Digest.parse("sha256:" + "ab".repeat(32));
        String url = CheckCommand.absolute(URI.create("https://evidence.example/"),
                Html.content(ArtifactId.parse(ARTIFACT)));
        assertEquals("https://evidence.example/api/v1/artifacts/" + ARTIFACT + "/content", url);
        String source = CheckCommand.source(Optional.of(URI.create("https://evidence.example/")),
                Html.content(ArtifactId.parse(ARTIFACT)));
        assertEquals("'" + url + "'", source);
        assertEquals("curl -fsS -o grafana-checkout '" + url + "' && echo '" + "ab".repeat(32)
                + "  grafana-checkout' | sha256sum -c", CheckCommand.of(source, "grafana-checkout", digest, false));
        assertEquals("curl -fsS -H \"Authorization: Bearer $TOKEN\" -o x 'u' && echo '" + "ab".repeat(32)
                + "  x' | sha256sum -c", CheckCommand.of("'u'", "x", digest, true));
        assertEquals("\"${EVIDENCE_STORE:?set it to the address of the Evidence Store}\"'/p%27x'",
                CheckCommand.source(Optional.empty(), "/p'x"), "without a configured address, the shell's variable");
        assertEquals("http://h%27x/p", CheckCommand.absolute(URI.create("http://h'x/"), "/p"),
                "a quote cannot end the shell's quoting");
    }
}
