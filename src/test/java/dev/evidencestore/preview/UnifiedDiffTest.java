package dev.evidencestore.preview;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UnifiedDiffTest {

    private final UnifiedDiff diffs = new UnifiedDiff();

    @Test
    void theDemoDeploymentShowsItsHeaderBlockCommitAndTheBatchSizeChange() throws Unreadable {
        DiffPreview diff = demo("{\"repository\": \"tellagen/checkout-api\", "
                + "\"commit\": \"9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7\"}");
        assertEquals("GitHub deployment deploy-2026-06-18.1", diff.header().get(0));
        assertEquals("Comparing deploy-2026-06-17.3...deploy-2026-06-18.1: 1 commit, 2 files changed, "
                + "5 insertions(+), 1 deletion(-)", diff.header().get(diff.header().size() - 1));
        DiffPreview.Commit commit = diff.commits().get(0);
        assertEquals("9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7", commit.sha());
        assertEquals("Kadri Lepp <kadri.lepp@tellagen.example>", commit.author());
        assertEquals("Raise outbound order webhook batch size to 500", commit.subject());
        assertEquals(List.of("Fewer, larger deliveries per worker lease, to cut per-request overhead",
                "at peak. Delivery correctness checks pass in staging."), commit.body());
        assertEquals(List.of("CHANGELOG.md", "config/webhooks.yaml"),
                diff.files().stream().map(DiffPreview.File::path).toList());
        assertEquals(5, diff.added());
        assertEquals(1, diff.removed());

        DiffPreview.Hunk webhooks = diff.files().get(1).hunks().get(0);
        assertEquals("@@ -4,7 +4,7 @@", webhooks.header());
        assertEquals(List.of(
                new DiffPreview.Line("context", 4, 4, "  order_webhooks:"),
                new DiffPreview.Line("context", 5, 5, "    delivery_timeout: 10s"),
                new DiffPreview.Line("context", 6, 6, "    lease_duration: 30s"),
                new DiffPreview.Line("removed", 7, null, "    batch_size: 50"),
                new DiffPreview.Line("added", null, 7, "    batch_size: 500"),
                new DiffPreview.Line("context", 8, 8, "    max_concurrency: 8"),
                new DiffPreview.Line("context", 9, 9, "    retry:"),
                new DiffPreview.Line("context", 10, 10, "      strategy: requeue_batch")), webhooks.lines());
    }

    @Test
    void readsTheRepositoryRefsAndCommitsAndFindsTheDeclaredCommitInTheDiff() throws Unreadable {
        DiffPreview diff = demo("{\"repository\": \"tellagen/checkout-api\", \"commit\": \"9c4be1f0\"}");
        assertEquals(List.of(
                new Fact("repository", "Repository", List.of("tellagen/checkout-api")),
                new Fact("refs", "Refs", List.of("release/2026.06.18.1", "deploy-2026-06-17.3",
                        "deploy-2026-06-18.1")),
                new Fact("commits", "Commits", List.of("9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7",
                        "4e7d2a91c3b5f8e0a6d2c9b1f4e7a3d5c8b0e2f6")),
                new Fact("files", "Files", List.of("CHANGELOG.md", "config/webhooks.yaml")),
                new Fact("lines", "Lines", List.of("+5 −1"))), diff.facts().facts());
        assertEquals(List.of(), diff.facts().disagreements(), "a short SHA names the commit too");
    }

    @Test
    void flagsADeclaredCommitAndRepositoryTheDiffDoesNotContain() throws Unreadable {
        DiffPreview diff = demo("{\"repository\": \"tellagen/payments\", \"commit\": \"0123456789abcdef\"}");
        assertEquals(List.of(
                new Disagreement("commit", "0123456789abcdef", "the diff names "
                        + "9c4be1f0d2a7e5b3c6f1a8d9e0b2c4f6a1d3e5b7, 4e7d2a91c3b5f8e0a6d2c9b1f4e7a3d5c8b0e2f6"),
                new Disagreement("repository", "tellagen/payments", "the diff is of tellagen/checkout-api")),
                diff.facts().disagreements());
    }

    @Test
    void aRealMultiFileGitDiffHasItsRenamesNewAndDeletedFilesAndEveryHunk() throws Unreadable {
        DiffPreview diff = (DiffPreview) diffs.read(Fixtures.subject("text/x-patch", "git", "snapshot", null),
                Fixtures.whole(Fixtures.OWN + "git-multi-file.diff"));
        assertEquals(List.of(), diff.header());
        assertEquals(List.of(), diff.commits());
        assertEquals(List.of("README.md modified +2 -1", "docs/alphabet.txt renamed +1 -1", "docs/new.md added +1 -0",
                "docs/old.txt deleted +0 -1", "src/main.go modified +3 -2"), diff.files().stream()
                .map(f -> f.path() + " " + f.change() + " +" + f.added() + " -" + f.removed()).toList());
        assertEquals("docs/letters.txt", diff.files().get(1).oldPath());
        DiffPreview.File main = diff.files().get(4);
        assertEquals(List.of("@@ -3,9 +3,10 @@", "@@ -13,5 +14,5 @@"),
                main.hunks().stream().map(DiffPreview.Hunk::header).toList());
        assertEquals(new DiffPreview.Line("added", null, 9, "\tfmt.Println(\"two and a half\")"),
                main.hunks().get(0).lines().get(7));
        assertEquals(new DiffPreview.Line("context", 17, 18, "}"), main.hunks().get(1).lines().get(5));
        assertEquals("@@ -0,0 +1 @@", diff.files().get(2).hunks().get(0).header());
        assertEquals("@@ -1 +0,0 @@", diff.files().get(3).hunks().get(0).header());
        assertEquals(7, diff.added());
        assertEquals(5, diff.removed());
    }

    @Test
    void aBinaryFileGitOnlyNamesIsListedWhereGitWroteIt() throws Unreadable {
        byte[] text = ("diff --git a/README.md b/README.md\nindex e82c5ae..2cc8eff 100644\n--- a/README.md\n"
                + "+++ b/README.md\n@@ -1 +1 @@\n-old\n+new\n"
                + "diff --git a/logo.png b/logo.png\nindex 8352675..1592e5c 100644\n"
                + "Binary files a/logo.png and b/logo.png differ\n"
                + "diff --git a/z.txt b/z.txt\nindex 1111111..2222222 100644\n--- a/z.txt\n+++ b/z.txt\n"
                + "@@ -1 +1 @@\n-a\n+b\n").getBytes();
        DiffPreview diff = (DiffPreview) diffs.read(Fixtures.subject("text/x-diff", "git", "", null),
                new Prefix(text, text.length));
        assertEquals(List.of("README.md modified", "logo.png binary", "z.txt modified"),
                diff.files().stream().map(f -> f.path() + " " + f.change()).toList());
    }

    @Test
    void textThatIsNoDiffIsRefused() {
        byte[] text = "just some notes\nabout nothing\n".getBytes();
        assertThrows(Unreadable.class, () -> diffs.read(Fixtures.subject("text/x-diff", "github", "", null),
                new Prefix(text, text.length)));
    }

    @Test
    void takesDiffMediaTypesAndGithubText() {
        assertTrue(diffs.accepts(Fixtures.subject("text/x-diff", "", "", null)));
        assertTrue(diffs.accepts(Fixtures.subject("text/x-patch; charset=utf-8", "gitlab", "", null)));
        assertTrue(diffs.accepts(Fixtures.subject("text/plain", "github", "", null)));
        assertFalse(diffs.accepts(Fixtures.subject("application/json", "github", "", null)));
        assertFalse(diffs.accepts(Fixtures.subject("text/plain", "grafana", "", null)));
    }

    private DiffPreview demo(String capture) throws Unreadable {
        return (DiffPreview) diffs.read(Fixtures.subject("text/x-diff", "github", "snapshot", capture),
                Fixtures.whole(Fixtures.DEMO + "github-deployment.diff"));
    }
}
