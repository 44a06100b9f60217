package dev.evidencestore.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Where settings come from (flags, then environment, then the config file) and the exit codes of usage errors. */
class SettingsTest {

    @TempDir
    Path home;

    @Test
    void theServiceUrlLosesATrailingApiV1AndSlashes() {
        assertEquals("http://localhost:8080/", Session.baseUrl("http://localhost:8080/api/v1/").toString());
        assertEquals("https://evidence.example.com/", Session.baseUrl("https://evidence.example.com").toString());
    }

    @Test
    void aUrlThatIsNotHttpIsAUsageError() {
        CliUser.Result result = user().set("EVIDENCE_URL", "ftp://example.com").run("log", "check");
        assertEquals(2, result.exit(), result.toString());
        assertEquals("evidence: the service URL \"ftp://example.com\" is not an http or https URL\n", result.err());
    }

    @Test
    void noServiceAtAllIsAUsageErrorNamingTheThreePlaces() {
        CliUser.Result result = user().run("log", "check");
        assertEquals(2, result.exit());
        assertEquals("evidence: no service: give --url, set EVIDENCE_URL or put url = … in "
                + home.resolve("config/evidence/config") + "\n", result.err());
    }

    @Test
    void theConfigFileGivesTheUrlWhenNeitherFlagNorEnvironmentDo() throws Exception {
        Files.createDirectories(home.resolve("config/evidence"));
        Files.writeString(home.resolve("config/evidence/config"), "url = http://127.0.0.1:1\nattempts = 1\n");
        CliUser.Result result = user().run("log", "check");
        assertEquals(4, result.exit(), result.toString());
        assertTrue(result.err().startsWith("evidence: GET api/v1/audit/checkpoint failed 1 times"), result.err());
    }

    @Test
    void aTokenInTheConfigFileIsRefusedAndNotEchoed() throws Exception {
        Files.createDirectories(home.resolve("config/evidence"));
        Files.writeString(home.resolve("config/evidence/config"), "url = http://127.0.0.1:1\ntoken = eyJsecret\n");
        CliUser.Result result = user().run("log", "check");
        assertEquals(2, result.exit());
        assertTrue(result.err().contains("has the unknown key \"token\""), result.err());
        assertFalse(result.err().contains("eyJsecret"), result.err());
    }

    @Test
    void aTokenFileThatHoldsMoreThanATokenIsRefusedWithoutShowingIt() throws Exception {
        Path token = Files.writeString(home.resolve("token"), "eyJsecret part two\n");
        CliUser.Result result = user().set("EVIDENCE_URL", "http://127.0.0.1:1").run("log", "check", "--token-file",
                token.toString());
        assertEquals(2, result.exit());
        assertEquals("evidence: the token file " + token + " does not hold one token\n", result.err());
    }

    @Test
    void theTokenGoesOnlyInTheAuthorizationHeaderAndTheFlagWinsOverTheEnvironment() throws Exception {
        try (FakeSource fake = new FakeSource()) {
            fake.on("GET", "/api/v1/audit/checkpoint", request -> new FakeSource.Reply(404, "application/problem+json",
                    "{\"type\":\"https://evidence-store.dev/problems/not-found\",\"status\":404}".getBytes()));
            fake.on("POST", "/api/v1/citations/check", request -> FakeSource.Reply.json(
                    "{\"ok\":true,\"checked\":0,\"mentions\":0,\"citations\":[]}"));
            Path text = Files.writeString(home.resolve("pm.md"), "Nothing cited.\n");
            Path flag = Files.writeString(home.resolve("flag.token"), "from-the-flag\n");
            CliUser.Result result = user().url(fake.url()).set("EVIDENCE_TOKEN", "from-the-environment")
                    .run("check", text.toString(), "--token-file", flag.toString());
            assertEquals(0, result.exit(), result.toString());
            assertEquals(text + ": cites no artifact or finding\n", result.out());
            FakeSource.Request check = fake.requests.get(1);
            assertEquals("Bearer from-the-flag", check.header("Authorization"));
            assertEquals(null, fake.requests.get(0).header("Authorization"), "the log's reads need no token");
            assertEquals("text/markdown; charset=utf-8", check.header("Content-Type"));
            assertFalse(result.out().contains("from-the") || result.err().contains("from-the"));
        }
    }

    @Test
    void usageErrorsAreExit2() {
        assertEquals(2, user().run("push", "missing.json", "--source", "x").exit(), "no --incident");
        assertEquals(2, user().run("push", "-i", "INC-1", "--source", "x").exit(), "no file");
        assertEquals(2, user().run("no-such-command").exit());
        assertEquals(2, user().run().exit());
        CliUser.Result stdin = user().set("EVIDENCE_URL", "http://127.0.0.1:1").run("push", "-", "-i", "INC-1",
                "--source", "exec");
        assertEquals(2, stdin.exit());
        assertEquals("evidence: standard input has no file name: give the artifact's name with --name\n", stdin.err());
        assertEquals(2, user().run("push", "a", "b", "--name", "x", "-i", "INC-1", "--source", "s").exit());
    }

    @Test
    void versionAndHelpAreExit0() {
        CliUser.Result version = user().run("--version");
        assertEquals(0, version.exit());
        assertTrue(version.out().startsWith("evidence-cli 0.1.0 (Java "), version.out());
        CliUser.Result help = user().run("push", "--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("--parallel=N"), help.out());
    }

    @Test
    void theLauncherRunsTheProcessEnvironment() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = EvidenceCommand.run(new Invocation(Map.of("HOME", home.toString()),
                new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)), "log", "status");
        assertEquals(0, exit);
        assertEquals(List.of("no log remembered yet under " + home.resolve(".local/state/evidence/witness")),
                out.toString(StandardCharsets.UTF_8).lines().toList());
    }

    private CliUser user() {
        return new CliUser(home);
    }
}
