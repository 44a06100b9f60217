package dev.evidencestore.render;

/**
 * Record text (descriptions, statements, events, notes) as HTML for a page, rendered the one way the postmortem
 * renders it: inline Markdown only (code spans, emphasis, links to http(s) URLs), everything else escaped.
 */
public final class RecordText {

    private RecordText() {
    }

    /** One line of HTML: paragraph and line breaks become spaces, and no block element wraps it. */
    public static String line(String text) {
        if (text == null || text.isBlank()) {
            return "";
        }
        String html = PostmortemHtml.render(InlineMarkdown.render(text, InlineMarkdown.Shape.LINE)).strip();
        return html.startsWith("<p>") && html.endsWith("</p>") ? html.substring(3, html.length() - 4) : html;
    }
}
