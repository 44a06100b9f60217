package dev.evidencestore.render;

import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.Emphasis;
import org.commonmark.node.HardLineBreak;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.LinkReferenceDefinition;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.node.Text;
import org.commonmark.parser.IncludeSourceSpans;
import org.commonmark.parser.Parser;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Record text as the postmortem shows it: inline Markdown only. Code spans, emphasis and links to absolute http(s)
 * URLs keep their meaning; everything else a record writes comes out as literal text, so that the structure of the
 * page (its sections, lists and tables) is the service's alone, whatever the records say.
 *
 * <p>The text is parsed by CommonMark with every block type switched off, so it is nothing but paragraphs of inline
 * nodes, and those nodes are written back out: text with each character escaped that could mean something where
 * the text lands (a line start, a table cell, next to the service's own emphasis), raw HTML, images and links to
 * anything but the web as the text they were written as.
 */
final class InlineMarkdown {

    /** Where the text lands in the page. */
    enum Shape {
        /** Paragraphs of their own: lines and paragraph breaks are kept. */
        PARAGRAPHS,
        /** Part of one line of the page, such as a list item or the title: every break becomes a space. */
        LINE,
        /** A cell of a GitHub table: one line, and no pipe may end the cell, not even inside a code span. */
        CELL
    }

    private static final Parser INLINE_ONLY = Parser.builder().enabledBlockTypes(Set.of())
            .includeSourceSpans(IncludeSourceSpans.BLOCKS_AND_INLINES).build();
    /**
     * Every line break CommonMark knows (LF, CR LF, CR), and those that Java's {@code \R} (and so the citation
     * check) or a browser also break lines at: vertical tab, form feed, NEL, the line and paragraph separators.
     */
    private static final String LINE_BREAKS = "\n\r\u000B\u000C\u0085\u2028\u2029";
    private static final Pattern LINE_BREAK = Pattern.compile("\r\n|[" + LINE_BREAKS + "]");
    /**
     * Characters with an inline meaning anywhere in a line; the rest of ASCII punctuation only at a line start.
     * {@code !} is one: a literal one right before a link the text keeps would make that link an image.
     */
    private static final String INLINE_MARKUP = "\\`*_[]<&#!";
    private static final String ASCII_PUNCTUATION = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

    private InlineMarkdown() {
    }

    static String render(String text, Shape shape) {
        if (text == null) {
            return "";
        }
        if (isOneLineOfPlainText(text)) {
            // CommonMark would read one paragraph of one text node: written out the same, without the parse
            String normalised = text.replace('\t', ' ');
            return written(normalised, shape, writer -> writer.text(normalised));
        }
        return parsed(normalised(text), shape);
    }

    /** Every line break as LF; a tab, which would indent a line into a code block or pad a cell, as a space. */
    static String normalised(String text) {
        return LINE_BREAK.matcher(text).replaceAll("\n").replace('\t', ' ');
    }

    /** The text as CommonMark reads it, written back out: the path any text may take. */
    static String parsed(String normalised, Shape shape) {
        return written(normalised, shape, writer -> INLINE_ONLY.parse(normalised).accept(writer));
    }

    private static String written(String normalised, Shape shape, Consumer<Writer> write) {
        Writer writer = new Writer(normalised, shape);
        write.accept(writer);
        return writer.out.toString().strip();
    }

    /**
     * No line break, no NUL (which CommonMark replaces) and none of the characters its inline parser acts on (all in
     * {@link #INLINE_MARKUP}): most record text, as names, sources and one-line statements are.
     */
    private static boolean isOneLineOfPlainText(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\0' || LINE_BREAKS.indexOf(c) >= 0 || INLINE_MARKUP.indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Only absolute http and https URLs with a host are links: relative and protocol-relative ones, {@code data:},
     * {@code javascript:} and every other scheme are not.
     */
    static boolean isWebUrl(String destination) {
        try {
            URI uri = new URI(destination);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null;
        } catch (URISyntaxException notAUri) {
            return false;
        }
    }

    /** Writes the parsed nodes back out as inline Markdown, tracking line starts. */
    private static final class Writer extends AbstractVisitor {

        private final String source;
        private final Shape shape;
        private final StringBuilder out = new StringBuilder();
        private boolean lineStart = true;
        /** Digits at a line start, which a dot or parenthesis would turn into an ordered list item. */
        private boolean leadingDigits;
        private boolean firstBlock = true;

        Writer(String source, Shape shape) {
            this.source = source;
            this.shape = shape;
        }

        @Override
        public void visit(Paragraph paragraph) {
            blockBreak();
            visitChildren(paragraph);
        }

        /** A definition would turn {@code [x]} elsewhere into a link; the definition itself is shown as written. */
        @Override
        public void visit(LinkReferenceDefinition definition) {
            blockBreak();
            text(written(definition));
        }

        @Override
        public void visit(Text text) {
            text(text.getLiteral());
        }

        @Override
        public void visit(Code code) {
            String content = shape == Shape.CELL ? code.getLiteral().replace("|", "\\|") : code.getLiteral();
            String fence = "`".repeat(longestRun(content, '`') + 1);
            // a backtick at either end would join the fence, and CommonMark strips one space off each end when both
            // have one: padding then keeps the content as it was (a span of nothing but spaces is never stripped)
            boolean padded = !content.isBlank() && (content.startsWith("`") || content.endsWith("`")
                    || content.startsWith(" ") && content.endsWith(" "));
            String pad = padded ? " " : "";
            // at a line start a fence of three backticks is no code block: its info string would hold backticks
            markup(fence + pad + content + pad + fence);
        }

        @Override
        public void visit(Emphasis emphasis) {
            delimited(emphasis, emphasis.getOpeningDelimiter());
        }

        @Override
        public void visit(StrongEmphasis strong) {
            delimited(strong, strong.getOpeningDelimiter());
        }

        @Override
        public void visit(Link link) {
            if (!isWebUrl(link.getDestination())) {
                text(written(link));
                return;
            }
            markup("[");
            visitChildren(link);
            markup("](<" + destination(link.getDestination()) + ">)");
        }

        /** Images would fetch from anywhere the text says; they are shown as written. */
        @Override
        public void visit(Image image) {
            text(written(image));
        }

        @Override
        public void visit(HtmlInline html) {
            text(html.getLiteral());
        }

        @Override
        public void visit(SoftLineBreak lineBreak) {
            lineBreak();
        }

        @Override
        public void visit(HardLineBreak lineBreak) {
            lineBreak();
        }

        private void delimited(Node node, String delimiter) {
            Node leadingBreak = leadingBreak(node);
            if (leadingBreak != null) {
                // a backslash may break the line right after an opener: the break comes first, or the opener would
                // end a line, where alone it opens a list item
                leadingBreak.unlink();
                lineBreak();
            }
            // otherwise an emphasis opener is never followed by a space, so at a line start it opens no list item
            markup(delimiter);
            visitChildren(node);
            markup(delimiter);
        }

        /** The line break an emphasis, or the emphasis nested first in it, opens with. */
        private static Node leadingBreak(Node emphasis) {
            Node first = emphasis.getFirstChild();
            while (first instanceof Emphasis || first instanceof StrongEmphasis) {
                first = first.getFirstChild();
            }
            return first instanceof HardLineBreak ? first : null;
        }

        private void blockBreak() {
            if (!firstBlock) {
                if (shape == Shape.PARAGRAPHS) {
                    newLine();
                    out.append('\n');
                } else {
                    text(" ");
                }
            }
            firstBlock = false;
        }

        private void lineBreak() {
            if (shape == Shape.PARAGRAPHS) {
                newLine();
            } else {
                text(" ");
            }
        }

        private void newLine() {
            int end = out.length();
            while (end > 0 && out.charAt(end - 1) == ' ') {
                end--;
            }
            // trailing spaces would make a hard break; the line ends where its text does
            out.setLength(end);
            out.append('\n');
            lineStart = true;
            leadingDigits = false;
        }

        private void markup(String markdown) {
            out.append(markdown);
            lineStart = false;
            leadingDigits = false;
        }

        private void text(String text) {
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '\n') {
                    lineBreak();
                } else if (lineStart && c == ' ') {
                    // indentation could open a code block or a list item's continuation; a line starts at its text
                    continue;
                } else if (lineStart && Character.isDigit(c) && c < 128) {
                    out.append(c);
                    lineStart = false;
                    leadingDigits = true;
                } else {
                    boolean escape = lineStart ? ASCII_PUNCTUATION.indexOf(c) >= 0
                            : INLINE_MARKUP.indexOf(c) >= 0 || leadingDigits && (c == '.' || c == ')')
                            || shape == Shape.CELL && c == '|';
                    if (escape) {
                        out.append('\\');
                    }
                    out.append(c);
                    lineStart = false;
                    leadingDigits = leadingDigits && Character.isDigit(c) && c < 128;
                }
            }
        }

        /** The text of a node as the record wrote it. */
        private String written(Node node) {
            return node.getSourceSpans().stream()
                    .map(span -> source.substring(span.getInputIndex(), span.getInputIndex() + span.getLength()))
                    .collect(Collectors.joining("\n"));
        }

        private static String destination(String url) {
            StringBuilder escaped = new StringBuilder(url.length());
            for (int i = 0; i < url.length(); i++) {
                char c = url.charAt(i);
                if ("\\<>&|".indexOf(c) >= 0) {
                    escaped.append('\\');
                }
                escaped.append(c);
            }
            return escaped.toString();
        }

        private static int longestRun(String text, char c) {
            int longest = 0;
            int run = 0;
            for (int i = 0; i < text.length(); i++) {
                run = text.charAt(i) == c ? run + 1 : 0;
                longest = Math.max(longest, run);
            }
            return longest;
        }
    }
}
