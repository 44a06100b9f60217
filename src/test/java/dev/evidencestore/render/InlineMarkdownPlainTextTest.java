package dev.evidencestore.render;

import dev.evidencestore.render.InlineMarkdown.Shape;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Text that skips CommonMark's parse comes out exactly as the parse would have written it. */
class InlineMarkdownPlainTextTest {

    /** What can start a list, a heading, a quote or a table cell, spaces and non-ASCII, but no inline markup. */
    private static final String PLAIN = "aZ09 \t\u00a0\u2003#-+>=~.)(|:;'\"?/,%$@^{}é日\uD83D\uDE00";
    /** Inline markup, line breaks and NUL: the characters that send a text through the parse. */
    private static final String MARKUP = "\\`*_[]<&!\n\r\u000B\u000C\u0085\u2028\u2029\0";

    @Property(tries = 2000)
    void plainTextIsWrittenAsTheParseWritesIt(@ForAll("plain") String text, @ForAll Shape shape) {
        assertWrittenAsParsed(text, shape);
    }

    @Property(tries = 2000)
    void anyTextIsWrittenAsTheParseWritesIt(@ForAll("mixed") String text, @ForAll Shape shape) {
        assertWrittenAsParsed(text, shape);
    }

    private static void assertWrittenAsParsed(String text, Shape shape) {
        assertEquals(InlineMarkdown.parsed(InlineMarkdown.normalised(text), shape), InlineMarkdown.render(text, shape));
    }

    @Example
    void lineStartsStayText() {
        assertEquals("\\# not a heading", InlineMarkdown.render("  # not a heading  ", Shape.LINE));
        assertEquals("1\\. not a list \\| cell", InlineMarkdown.render("1. not a list | cell", Shape.CELL));
        assertEquals("\\- a > b", InlineMarkdown.render("\t- a > b", Shape.PARAGRAPHS));
    }

    @Provide
    Arbitrary<String> plain() {
        return Arbitraries.strings().withChars(PLAIN).ofMaxLength(40);
    }

    @Provide
    Arbitrary<String> mixed() {
        return Arbitraries.strings().withChars(PLAIN + MARKUP).ofMaxLength(40);
    }
}
