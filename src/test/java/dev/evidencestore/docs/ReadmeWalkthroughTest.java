package dev.evidencestore.docs;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's walk-through, run as written against the test application, so that it cannot drift from what the
 * service does: every request prints its status code, and the {@code # → 201} comments beside the requests say
 * which codes, in which order. It must also leave the checkout as it found it.
 */
@QuarkusTest
class ReadmeWalkthroughTest {

    private static final Path README = Path.of("README.md");
    private static final String SECTION = "Walk-through";
    /** What a comment beside a request expects, e.g. {@code # → 409 artifact-name-taken}; a loop may expect two. */
    private static final Pattern EXPECTED_STATUS = Pattern.compile("→ (\\d{3})");
    /** What curl's {@code -w '%{http_code}\n'} prints: a line of its own holding the status code. */
    private static final Pattern PRINTED_STATUS = Pattern.compile("^\\d{3}$", Pattern.MULTILINE);
    private static final long TIMEOUT_SECONDS = 120;

    @TestHTTPResource("/api/v1")
    URL api;

    @TempDir
    Path scratch;

    @Test
    void walkThroughPrintsTheStatusCodesItPromisesAndLeavesTheCheckoutAlone() throws Exception {
        String script = walkThrough(Files.readString(README));
        List<String> expected = matches(EXPECTED_STATUS, script);
        assertTrue(expected.size() >= 20, "the walk-through promises status codes: " + expected);
        Path checkout = Path.of("").toAbsolutePath();
        String checkoutBefore = gitStatus(checkout);

        Path scriptFile = scratch.resolve("walk-through.sh");
        Files.writeString(scriptFile, script);
        Path stdout = scratch.resolve("stdout.txt");
        Path stderr = scratch.resolve("stderr.txt");
        Path temporary = Files.createDirectories(scratch.resolve("tmp"));
        // -e and pipefail: a step that fails (sha256sum -c, the replay's header) fails the run, not just its line
        ProcessBuilder bash = new ProcessBuilder("bash", "-e", "-o", "pipefail", scriptFile.toString())
                .directory(scratch.toFile())
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        Map<String, String> environment = bash.environment();
        // dev/token.sh would sign with another key, issuer or lifetime if these came from the caller's environment
        environment.remove("KEY");
        environment.remove("ISSUER");
        environment.remove("TTL_SECONDS");
        environment.put("REPO", checkout.toString());
        environment.put("API", api.toString());
        // mktemp -d makes its directory here, which JUnit removes afterwards
        environment.put("TMPDIR", temporary.toString());
        // the offline check unpacks the bundle with the JDK's jar, which may not be on PATH where java is
        environment.put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator
                + environment.getOrDefault("PATH", "/usr/bin:/bin"));
        Process run = bash.start();
        if (!run.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            run.destroyForcibly();
            fail("the walk-through did not finish within " + TIMEOUT_SECONDS + " s\n" + output(stdout, stderr));
        }

        String printed = Files.readString(stdout, StandardCharsets.UTF_8);
        assertEquals(0, run.exitValue(), "the walk-through's exit code\n" + output(stdout, stderr));
        assertEquals(expected, matches(PRINTED_STATUS, printed),
                "the status codes the walk-through printed, against its # → comments\n" + output(stdout, stderr));
        assertTrue(printed.contains("Idempotent-Replayed: ?1"), "the retry is marked as a replay\n" + printed);
        assertEquals(checkoutBefore, gitStatus(checkout), "the walk-through changed the checkout");
    }

    /** The first bash block after the walk-through's heading. */
    private static String walkThrough(String markdown) {
        List<String> blocks = new ArrayList<>();
        Parser.builder().build().parse(markdown).accept(new AbstractVisitor() {
            private boolean inSection;

            @Override
            public void visit(Heading heading) {
                inSection = heading.getLevel() == 2 && SECTION.equals(text(heading));
            }

            @Override
            public void visit(FencedCodeBlock block) {
                if (inSection && "bash".equals(block.getInfo())) {
                    blocks.add(block.getLiteral());
                }
            }
        });
        assertTrue(!blocks.isEmpty(), "README.md has a ```bash block under ## " + SECTION);
        return blocks.get(0);
    }

    private static String text(Node node) {
        StringBuilder text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text literal) {
                text.append(literal.getLiteral());
            }
        });
        return text.toString();
    }

    private static List<String> matches(Pattern pattern, String text) {
        List<String> found = new ArrayList<>();
        Matcher matcher = pattern.matcher(text);
        while (matcher.find()) {
            found.add(matcher.groupCount() > 0 ? matcher.group(1) : matcher.group());
        }
        return found;
    }

    /** Every change to the checkout git can see: modified, added, deleted and untracked files. */
    private static String gitStatus(Path checkout) throws IOException, InterruptedException {
        Process git = new ProcessBuilder("git", "status", "--porcelain", "--untracked-files=all")
                .directory(checkout.toFile())
                .redirectErrorStream(true)
                .start();
        String status = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(git.waitFor(30, TimeUnit.SECONDS), "git status finishes");
        assertEquals(0, git.exitValue(), "git status in " + checkout + ": " + status);
        return status;
    }

    private static String output(Path stdout, Path stderr) throws IOException {
        return "--- stdout\n" + Files.readString(stdout) + "--- stderr\n" + Files.readString(stderr);
    }
}
