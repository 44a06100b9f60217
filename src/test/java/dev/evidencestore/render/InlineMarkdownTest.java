package dev.evidencestore.render;

import dev.evidencestore.render.InlineMarkdown.Shape;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Record text keeps its inline Markdown and loses everything else, written out exactly. */
class InlineMarkdownTest {

    private static String paragraphs(String text) {
        return InlineMarkdown.render(text, Shape.PARAGRAPHS);
    }

    private static String line(String text) {
        return InlineMarkdown.render(text, Shape.LINE);
    }

    @Test
    void codeSpansEmphasisAndWebLinksKeepTheirMeaning() {
        assertEquals("run `kubectl rollout undo` *now*, **please**, _today_",
                line("run `kubectl rollout undo` *now*, **please**, _today_"));
        assertEquals("see [the runbook](<https://runbooks.example/checkout?a=1\\&b=2>) and "
                        + "[http://status.example](<http://status.example>)",
                line("see [the runbook](https://runbooks.example/checkout?a=1&b=2) and <http://status.example>"));
        assertEquals("``a`b`` and `` `z` ``", line("``a`b`` and `` `z` ``"));
    }

    @Test
    void rawHtmlIsText() {
        assertEquals("\\<script>alert(1)\\</script> \\<img src=x onerror=alert(1)> \\<\\!-- hidden -->",
                line("<script>alert(1)</script> <img src=x onerror=alert(1)> <!-- hidden -->"));
        assertEquals("\\<script>", line("&lt;script&gt;"), "an entity means the character, which is then escaped");
        assertEquals("\\<div>\nsome \\<b>html\\</b>", paragraphs("<div>\nsome <b>html</b>"));
    }

    @Test
    void linksToAnythingButTheWebAreShownAsWritten() {
        assertEquals("\\[d\\](data:text/html;base64,PHNjcmlwdD4=)", line("[d](data:text/html;base64,PHNjcmlwdD4=)"));
        assertEquals("\\[x\\](javascript:alert(1)) \\<javascript:alert(1)>",
                line("[x](javascript:alert(1)) <javascript:alert(1)>"));
        assertEquals("\\[x\\](//evil.example/a) \\[y\\](/relative) \\[z\\](vbscript:msgbox)",
                line("[x](//evil.example/a) [y](/relative) [z](vbscript:msgbox)"));
        assertEquals("\\!\\[chart\\](https://x.example/i.png)", line("![chart](https://x.example/i.png)"));
    }

    @Test
    void aReferenceDefinitionIsShownAndItsLinkKeptOnlyToTheWeb() {
        assertEquals("\\[r\\]: https://x.example\n\n[r](<https://x.example>) then",
                paragraphs("[r]: https://x.example\n\n[r] then"));
        assertEquals("\\[r\\]: javascript:alert(1) \\[r\\] then", line("[r]: javascript:alert(1)\n\n[r] then"));
    }

    @Test
    void noLineOfProseStartsABlock() {
        String blocks = String.join("\n", "Routine.", "", "- ## Evidence", "> quote", "1. one", "2) two",
                "    indented", "---", "===", "+ plus", "* star", "~~~", "```text", "<div>", "|a|b|", "| --- | --- |",
                "***", "<!-- c -->", "# title #", "[r]: https://x.example");
        assertEquals(String.join("\n", "Routine.", "", "\\- \\#\\# Evidence", "\\> quote", "1\\. one", "2\\) two",
                        "indented", "\\---", "\\===", "\\+ plus", "\\* star", "\\~~~", "\\`\\`\\`text", "\\<div>",
                        "\\|a|b|", "\\| --- | --- |", "\\*\\*\\*", "\\<\\!-- c -->", "\\# title \\#",
                        "\\[r\\]: https://x.example"),
                paragraphs(blocks));
    }

    @Test
    void everyLineBreakIsOneWhereverABrowserOrTheCitationCheckSeesOne() {
        String breaks = "a\nb\r\nc\rd\u2028e\u2029f\u0085g\u000Bh\u000Ci";
        assertEquals("a\nb\nc\nd\ne\nf\ng\nh\ni", paragraphs(breaks));
        assertEquals("a b c d e f g h i", line(breaks));
        assertEquals("\\# x then\n\\- y", paragraphs("\t# x\tthen\r\n\t- y"), "tabs indent nothing");
        assertEquals("hard\nbreaks", paragraphs("hard  \nbreaks"), "no trailing spaces make a break of their own");
    }

    @Test
    void aTableCellEndsOnlyWhereTheServiceEndsIt() {
        assertEquals("a \\| b `x\\|y` \\|", InlineMarkdown.render("a | b `x|y` \\|", Shape.CELL));
        assertEquals("C:\\\\\\|", InlineMarkdown.render("C:\\\\|", Shape.CELL), "a backslash, then a pipe");
        assertEquals("a | b `x|y`", line("a | b `x|y`"), "outside a table a pipe is only a pipe");
    }

    @Test
    void backslashesStayLiteral() {
        assertEquals("C:\\\\temp\\\\ \\* not emphasis", line("C:\\temp\\ \\* not emphasis"));
        assertEquals("ends with \\\\", line("ends with \\"));
        assertEquals("a\nb", paragraphs("a\\\nb"), "a backslash that breaks a line is a line break");
    }

    @Test
    void onlyAbsoluteHttpUrlsWithAHostAreWebUrls() {
        assertTrue(InlineMarkdown.isWebUrl("https://example.org/a?b#c"));
        assertTrue(InlineMarkdown.isWebUrl("HTTP://example.org"));
        for (String url : new String[] {"//evil.example", "/relative", "relative", "http:/x", "http://",
                "data:text/html,x", "javascript:alert(1)", "JavaScript:alert(1)", "vbscript:x",
                "file:///etc/passwd", "mailto:a@b.example", "https://exa mple.org", ""}) {
            assertFalse(InlineMarkdown.isWebUrl(url), url);
        }
    }

    /** Found by PostmortemStructureTest: an escaped {@code !} before a kept link must not turn it into an image. */
    @Test
    void aLiteralBangBeforeALinkDoesNotMakeAnImage() {
        assertEquals("\\#\\![i](<https://ok.example/i.png>)", line("#\\![i](https://ok.example/i.png)"));
    }

    /**
     * Found by PostmortemStructureTest: emphasis may open on a backslash's line break, and an opener left alone at the
     * end of a line would start a list item there; the break goes before the opener.
     */
    @Test
    void emphasisThatOpensOnALineBreakOpensOnTheNextLine() {
        assertEquals("*\\#\\#\\# heading*", paragraphs("*\\\n### heading*"));
        assertEquals("a\n*b*", paragraphs("a *\\\nb*"));
        assertEquals("a\n***b** c*", paragraphs("a ***\\\nb** c*"));
        assertEquals("a  ***b***", line("a ***\\\nb***"));
        assertEquals("a\\*\nb\\*", paragraphs("a*\\\nb*"), "after a letter the star opens nothing");
    }
}
