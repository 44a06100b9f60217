package dev.evidencestore.render;

import dev.evidencestore.domain.CitationsInText;
import dev.evidencestore.domain.IncidentRecord;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TableBlock;
import org.commonmark.ext.gfm.tables.TableBody;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.BlockQuote;
import org.commonmark.node.BulletList;
import org.commonmark.node.Code;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.IndentedCodeBlock;
import org.commonmark.node.Link;
import org.commonmark.node.ListItem;
import org.commonmark.node.Node;
import org.commonmark.node.OrderedList;
import org.commonmark.node.Paragraph;
import org.commonmark.node.Text;
import org.commonmark.node.ThematicBreak;
import org.commonmark.parser.Parser;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whatever people write into an investigation, its postmortem has the service's structure: the headings, lists and
 * tables of the page are the same as for plain text, nothing but inline Markdown comes from the records, and the
 * citation check still finds every cited ID next to its own digest.
 */
class PostmortemStructureTest {

    /** Every way CommonMark and GitHub open a block, break a line or link, and the characters that escape them. */
    private static final List<String> TROUBLEMAKERS = List.of(
            "#", "# ", "## Evidence and review record", "### Supporting", "-", "- ", "*", "* ", "+ ", "1. ", "1) ",
            "10.", "> ", "```", "```text", "~~~", "~~~ x", "    ", "  ", "<div>", "</div>", "<!--", "-->", "---", "===",
            "***", "___", "- - -", "|a|b|", "| --- | --- |", "|", ":-:", "\t", "\r", "\r\n", "\n", "\n\n",
            "\u2028", "\u2029", "\u0085", "\u000B", "\u000C", "[x](https://ok.example/a)",
            "[d](data:text/html;base64,PHNjcmlwdD4=)", "[j](javascript:alert(1))", "[p](//evil.example)",
            "![i](https://ok.example/i.png)", "[r]: /relative", "[r]", "[r]: https://ok.example",
            "<https://ok.example>", "<javascript:alert(1)>", "<script>alert(1)</script>",
            "\\", "\\\n", "  \n", "`", "``", "`code`", "*em*", "**strong**", "_", "&amp;", "&#35;", "Word", "timo",
            "Routine summary.", " ", "!", "(", ")", "]", "[", "<");

    private static final List<Extension> TABLES = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(TABLES).build();
    private static final Pattern HTML_HEADING = Pattern.compile("<h([1-6])>");
    /** The page's blocks for text that means nothing in Markdown. */
    private static final List<String> PLAIN_SKELETON = skeleton(page("Plain text."));

    @Provide
    Arbitrary<String> recordText() {
        return Arbitraries.of(TROUBLEMAKERS).list().ofMinSize(1).ofMaxSize(12).map(parts -> String.join("", parts))
                // a person's text says something: only letters and digits are sure to show
                .filter(text -> text.codePoints().anyMatch(Character::isLetterOrDigit));
    }

    @Property(tries = 600)
    void recordTextNeverChangesThePagesStructure(@ForAll("recordText") String text) {
        String markdown = page(text);
        Node document = PARSER.parse(markdown);
        assertEquals(PLAIN_SKELETON, skeleton(markdown), markdown);
        assertEquals(expectedHeadings(), headings(document).subList(1, headings(document).size()), markdown);
        assertTrue(headings(document).get(0).startsWith("1 INC-1423: "), markdown);
        assertEquals(List.of(), blocksFromRecords(document), markdown);
        assertEquals("Evidence manifest digest: " + manifestOf(text).digest(), plainText(document.getLastChild()));
        List<String> levels = new ArrayList<>();
        Matcher tags = HTML_HEADING.matcher(PostmortemHtml.render(markdown));
        while (tags.find()) {
            levels.add(tags.group(1));
        }
        assertEquals(headings(document).stream().map(h -> h.substring(0, 1)).toList(), levels, "the HTML's headings");
    }

    @Property(tries = 600)
    void theCitationCheckFindsEveryCitedIdNextToItsDigest(@ForAll("recordText") String text) {
        String markdown = page(text);
        Map<String, Long> mentions = CitationsInText.read(markdown).stream()
                .collect(Collectors.groupingBy(CitationsInText.Mention::id, Collectors.counting()));
        // an artifact: in detection and diagnosis, in the chronology, under its finding and in its verification
        assertEquals(Map.of(RecordWithText.PANEL.toString(), 4L, RecordWithText.GAP.toString(), 4L,
                RecordWithText.SUPPORTING.toString(), 3L, RecordWithText.UNAVAILABLE.toString(), 1L), mentions,
                markdown);
        Map<String, String> digests = Map.of(RecordWithText.PANEL.toString(), RecordWithText.PANEL_DIGEST.toString(),
                RecordWithText.GAP.toString(), RecordWithText.GAP_DIGEST.toString());
        for (CitationsInText.Mention mention : CitationsInText.read(markdown)) {
            String digest = digests.get(mention.id());
            assertTrue(digest == null || mention.digestsOnLine().isEmpty() || mention.digestsOnLine().contains(digest),
                    mention::toString);
        }
    }

    @Example
    void theForgedReviewRecordOfTheIssueIsText() {
        String forgery = "Routine summary.\n\n- ## Evidence and review record\n\n  Root cause **accepted** by reviewer "
                + "timo; all evidence verified.\n\n```text";
        recordTextNeverChangesThePagesStructure(forgery);
        theCitationCheckFindsEveryCitedIdNextToItsDigest(forgery);
    }

    /** Found in CI: emphasis that opens on a backslash's line break left its opener alone at a line's end. */
    @Example
    void emphasisOpeningOnALineBreakOpensNoListItem() {
        String text = "*\\\n#### Evidence and review record*";
        recordTextNeverChangesThePagesStructure(text);
        theCitationCheckFindsEveryCitedIdNextToItsDigest(text);
    }

    private static String page(String text) {
        IncidentRecord record = RecordWithText.everywhere(text);
        return PostmortemMarkdown.render(record, EvidenceManifest.of(record), RecordWithText.CHECKPOINT);
    }

    private static EvidenceManifest manifestOf(String text) {
        return EvidenceManifest.of(RecordWithText.everywhere(text));
    }

    private static List<String> expectedHeadings() {
        return List.of("2 Summary", "2 Impact", "2 Chronology", "2 Detection and diagnosis", "2 Root cause",
                "2 Findings", "3 Supporting", "3 Negative", "3 Gap", "2 Contributing factors", "2 What went well",
                "2 What made response harder", "2 Detection gap", "2 Actions", "2 Evidence and review record");
    }

    private static List<String> headings(Node document) {
        List<String> headings = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(Heading heading) {
                headings.add(heading.getLevel() + " " + plainText(heading));
            }
        });
        return headings;
    }

    /**
     * The top-level blocks, with lists by their items' blocks and tables by their rows. A run of paragraphs is one
     * entry: prose keeps the paragraphs its writer made.
     */
    private static List<String> skeleton(String markdown) {
        List<String> blocks = new ArrayList<>();
        for (Node block = PARSER.parse(markdown).getFirstChild(); block != null; block = block.getNext()) {
            String shape = shape(block);
            if (!(shape.equals("p") && !blocks.isEmpty() && blocks.get(blocks.size() - 1).equals("p"))) {
                blocks.add(shape);
            }
        }
        return blocks;
    }

    private static String shape(Node block) {
        if (block instanceof Heading heading) {
            return "h" + heading.getLevel();
        }
        if (block instanceof Paragraph) {
            return "p";
        }
        if (block instanceof TableBlock) {
            int rows = 0;
            for (Node part = block.getFirstChild(); part != null; part = part.getNext()) {
                rows += part instanceof TableBody ? count(part) : 1;
            }
            return "table(" + rows + " rows)";
        }
        List<String> children = new ArrayList<>();
        for (Node child = block.getFirstChild(); child != null; child = child.getNext()) {
            children.add(shape(child));
        }
        return block.getClass().getSimpleName() + children;
    }

    private static int count(Node parent) {
        int n = 0;
        for (Node child = parent.getFirstChild(); child != null; child = child.getNext()) {
            n++;
        }
        return n;
    }

    /**
     * What only record text could have made: blocks the service never writes (its one code block is the signed
     * checkpoint), raw HTML, images, foreign links.
     */
    private static List<String> blocksFromRecords(Node document) {
        List<String> found = new ArrayList<>();
        document.accept(new AbstractVisitor() {
            @Override
            public void visit(BlockQuote node) {
                found.add("block quote");
            }

            @Override
            public void visit(FencedCodeBlock node) {
                // the service's own: the signed checkpoint, verbatim
                if (!node.getLiteral().equals(RecordWithText.CHECKPOINT.note())) {
                    found.add("fenced code");
                }
            }

            @Override
            public void visit(IndentedCodeBlock node) {
                found.add("indented code");
            }

            @Override
            public void visit(HtmlBlock node) {
                found.add("HTML block " + node.getLiteral());
            }

            @Override
            public void visit(HtmlInline node) {
                found.add("inline HTML " + node.getLiteral());
            }

            @Override
            public void visit(ThematicBreak node) {
                found.add("thematic break");
            }

            @Override
            public void visit(OrderedList node) {
                found.add("ordered list");
            }

            @Override
            public void visit(Image node) {
                found.add("image " + node.getDestination());
            }

            @Override
            public void visit(Link node) {
                if (!InlineMarkdown.isWebUrl(node.getDestination())) {
                    found.add("link to " + node.getDestination());
                }
                visitChildren(node);
            }

            @Override
            public void visit(BulletList node) {
                visitChildren(node);
            }

            @Override
            public void visit(ListItem node) {
                visitChildren(node);
            }
        });
        return found;
    }

    private static String plainText(Node node) {
        StringBuilder text = new StringBuilder();
        node.accept(new AbstractVisitor() {
            @Override
            public void visit(Text t) {
                text.append(t.getLiteral());
            }

            @Override
            public void visit(Code code) {
                text.append(code.getLiteral());
            }
        });
        return text.toString();
    }
}
