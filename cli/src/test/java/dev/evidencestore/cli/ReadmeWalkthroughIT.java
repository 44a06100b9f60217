package dev.evidencestore.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The README's walk-through, the raw HTTP block and then the one with the command line, run as written in one shell
 * against the packaged service: the service's own ReadmeWalkthroughTest checks the first block's status codes in
 * dev mode; this checks that the second, in the same shell after it, does what its comments say.
 */
class ReadmeWalkthroughIT {

    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
    private static final String SECTION = "## Walk-through";
    private static final Pattern ID_AND_DIGEST = Pattern.compile("artifact:walkthrough-[0-9a-f]{8}:v1:INC-1424:%s "
            .replace("%s", "(grafana-errors|kubernetes-workers)") + "sha256:[0-9a-f]{64}");

    @TempDir
    Path scratch;

    @Test
    void bothBlocksRunAsWrittenAndTheCommandLineDoesWhatItsCommentsSay() throws Exception {
        PackagedService service = PackagedService.shared();
        Path script = Files.writeString(scratch.resolve("walk-through.sh"), String.join("\n", blocks()));
        Path stdout = scratch.resolve("stdout.txt");
        Path stderr = scratch.resolve("stderr.txt");
        ProcessBuilder bash = new ProcessBuilder("bash", "-e", "-o", "pipefail", script.toString())
                .directory(scratch.toFile()).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        Map<String, String> environment = bash.environment();
        environment.put("REPO", REPO.toString());
        environment.put("API", service.url() + "/api/v1");
        // dev/token.sh and the log's key: this instance's throwaway keys instead of the published dev ones
        environment.put("KEY", service.directory.resolve("jwt-private.pem").toAbsolutePath().toString());
        environment.put("ISSUER", PackagedService.ISSUER);
        environment.remove("TTL_SECONDS");
        environment.put("AUDIT_KEY", service.directory.resolve("audit.pem").toAbsolutePath().toString());
        environment.put("TMPDIR", Files.createDirectories(scratch.resolve("tmp")).toString());
        List.of("EVIDENCE_URL", "EVIDENCE_TOKEN", "EVIDENCE_TOKEN_FILE", "EVIDENCE_WORKSPACE").forEach(environment::remove);
        environment.put("PATH", Path.of(System.getProperty("java.home"), "bin") + File.pathSeparator
                + environment.getOrDefault("PATH", "/usr/bin:/bin"));
        Process run = bash.start();
        if (!run.waitFor(240, TimeUnit.SECONDS)) {
            run.destroyForcibly();
            fail("the walk-through did not finish within 240 s\n" + output(stdout, stderr));
        }
        String printed = Files.readString(stdout, StandardCharsets.UTF_8);
        assertEquals(0, run.exitValue(), "the walk-through's exit code\n" + output(stdout, stderr));
        assertEquals(2, printed.lines().filter(line -> ID_AND_DIGEST.matcher(line).matches()).count(), printed);
        assertTrue(Pattern.compile("(?m)^artifact:walkthrough-[0-9a-f]{8}:v1:INC-1424:zendesk-unavailable ")
                .matcher(printed).find(), printed);
        assertTrue(Pattern.compile("(?m)^verified artifact:walkthrough-[0-9a-f]{8}:v1:INC-1424:grafana-checkout ")
                .matcher(printed).find(), printed);
        assertTrue(printed.contains("local copy matches"), printed);
        assertTrue(Pattern.compile("(?m)^ok\\s").matcher(printed).find(), printed);
        assertTrue(printed.lines().noneMatch(line -> line.startsWith("unverified") || line.startsWith("FAIL")), printed);
        assertTrue(printed.lines().anyMatch(line -> line.startsWith("PASS")), printed);
    }

    /** Every bash block of the walk-through's section, in order. */
    private static List<String> blocks() throws IOException {
        List<String> blocks = new ArrayList<>();
        boolean inSection = false;
        StringBuilder block = null;
        for (String line : Files.readAllLines(REPO.resolve("README.md"))) {
            if (line.startsWith("## ")) {
                inSection = line.equals(SECTION);
            } else if (inSection && block == null && line.equals("```bash")) {
                block = new StringBuilder();
            } else if (block != null && line.equals("```")) {
                blocks.add(block.toString());
                block = null;
            } else if (block != null) {
                block.append(line).append('\n');
            }
        }
        assertEquals(2, blocks.size(), "the raw HTTP block and the command line's");
        return blocks;
    }

    private static String output(Path stdout, Path stderr) throws IOException {
        return "--- stdout\n" + Files.readString(stdout) + "--- stderr\n" + Files.readString(stderr);
    }
}
