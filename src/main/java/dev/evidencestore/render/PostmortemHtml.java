package dev.evidencestore.render;

import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;
import org.commonmark.renderer.html.UrlSanitizer;

import java.util.List;

/**
 * The HTML form of a postmortem: its Markdown through CommonMark with GitHub tables, so both forms say exactly the
 * same. The Markdown holds record text as inline Markdown only ({@link InlineMarkdown}); the renderer escapes raw
 * HTML and drops any link that is not to the web all the same, so that a slip in the Markdown cannot become markup
 * or a script link in a page.
 */
public final class PostmortemHtml {

    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true)
            .sanitizeUrls(true).urlSanitizer(new WebOnly()).build();

    private PostmortemHtml() {
    }

    public static String render(String markdown) {
        return RENDERER.render(PARSER.parse(markdown));
    }

    /** The same HTML with anchors on the record's parts, as the web page shows it (the API's form has none). */
    public static String render(String markdown, PostmortemAnchors anchors) {
        return HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true).sanitizeUrls(true)
                .urlSanitizer(new WebOnly()).attributeProviderFactory(context -> anchors.provider()).build()
                .render(PARSER.parse(markdown));
    }

    /** Links and images only to absolute http(s) URLs; anything else loses its target. */
    private static final class WebOnly implements UrlSanitizer {

        @Override
        public String sanitizeLinkUrl(String url) {
            return InlineMarkdown.isWebUrl(url) ? url : "";
        }

        @Override
        public String sanitizeImageUrl(String url) {
            return sanitizeLinkUrl(url);
        }
    }
}
