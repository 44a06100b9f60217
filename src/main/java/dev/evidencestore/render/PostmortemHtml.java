package dev.evidencestore.render;

import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

import java.util.List;

/**
 * The HTML form of a postmortem: its Markdown through CommonMark with GitHub tables, so both forms say exactly the
 * same. Raw HTML in the Markdown is escaped: record text cannot inject markup into the page.
 */
public final class PostmortemHtml {

    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true)
            .sanitizeUrls(true).build();

    private PostmortemHtml() {
    }

    public static String render(String markdown) {
        return RENDERER.render(PARSER.parse(markdown));
    }
}
